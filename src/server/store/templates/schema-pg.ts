/** The PostgreSQL tables of this area (templates users added); drizzle-kit generates `drizzle/pg/` from every area's. */
import { json, pgTable, text } from "drizzle-orm/pg-core";

/** Templates users added. */
export const templates = pgTable("templates", {
  id: text().primaryKey(),
  name: text().notNull(),
  description: text(),
  tags: json().$type<string[]>().notNull(),
  toml_content: text().notNull(),
  created_at: text().notNull(),
  /** The id of the user who added it; null for templates added before sign-in existed. */
  owner: text(),
});
