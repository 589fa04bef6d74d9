/** The SQLite tables of this area (share links of saved pipelines); drizzle-kit generates `drizzle/sqlite/` from every area's. */
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { pipelines } from "../pipelines/schema-sqlite.js";
import { ownedBy } from "../sqlite-columns.js";

/** Share-link tokens; they die with their pipeline. */
export const shares = sqliteTable(
  "shares",
  {
    token: text().primaryKey(),
    pipeline_id: ownedBy(() => pipelines.id),
    created_at: text().notNull(),
    expires_at: text(),
    revoked_at: text(),
  },
  (t) => [index("shares_pipeline_idx").on(t.pipeline_id)],
);
