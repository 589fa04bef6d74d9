/** The PostgreSQL tables of this area (share links of saved pipelines); drizzle-kit generates `drizzle/pg/` from every area's. */
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { pipelines } from "../pipelines/schema-pg.js";
import { ownedBy } from "../pg-columns.js";

/** Share-link tokens; they die with their pipeline. */
export const shares = pgTable(
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
