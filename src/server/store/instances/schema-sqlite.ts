/** The SQLite tables of this area (the service instances); drizzle-kit generates `drizzle/sqlite/` from every area's. */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Service processes serving this database. */
export const instances = sqliteTable(
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
