/** The PostgreSQL tables of this area (the audit log); drizzle-kit generates `drizzle/pg/` from every area's. */
import { index, integer, pgTable, text } from "drizzle-orm/pg-core";

/** The audit log of state-changing requests and sign-in attempts. */
export const audit = pgTable(
  "audit",
  {
    id: text().primaryKey(),
    time: text().notNull(),
    actor: text(),
    method: text().notNull(),
    path: text().notNull(),
    status: integer().notNull(),
    result: text({ enum: ["success", "failure", "denied"] }).notNull(),
    detail: text(),
    action: text().notNull().default(""),
    resource: text(),
    ip: text(),
  },
  (t) => [index("audit_time_idx").on(t.time, t.id)],
);
