/** The PostgreSQL tables of this area (the service instances); drizzle-kit generates `drizzle/pg/` from every area's. */
import { index, integer, pgTable, text } from "drizzle-orm/pg-core";

/** Service processes serving this database. */
export const instances = pgTable(
  "instances",
  {
    id: text().primaryKey(),
    host: text().notNull(),
    pid: integer().notNull(),
    version: text().notNull(),
    started_at: text().notNull(),
    heartbeat_at: text().notNull(),
  },
  (table) => [index("instances_heartbeat").on(table.heartbeat_at)],
);
