/** Column shapes the PostgreSQL tables of several areas share. */
import { text, type PgColumn } from "drizzle-orm/pg-core";

/** A required key of a row that dies with the row it names (`ON DELETE CASCADE`). */
export function ownedBy(target: () => PgColumn) {
  return text().notNull().references(target, { onDelete: "cascade" });
}
