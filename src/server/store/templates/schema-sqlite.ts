/** The SQLite tables of this area (templates users added); drizzle-kit generates `drizzle/sqlite/` from every area's. */
import { sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Templates users added. */
export const templates = sqliteTable("templates", {
  id: text().primaryKey(),
  name: text().notNull(),
  description: text(),
  tags: text({ mode: "json" }).$type<string[]>().notNull(),
  toml_content: text().notNull(),
  created_at: text().notNull(),
  /** The id of the user who added it; null for templates added before sign-in existed. */
  owner: text(),
});
