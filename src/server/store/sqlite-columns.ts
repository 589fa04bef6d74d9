/** Column shapes the SQLite tables of several areas share. */
import { text, type SQLiteColumn } from "drizzle-orm/sqlite-core";

/** A required key of a row that dies with the row it names (`ON DELETE CASCADE`). */
export function ownedBy(target: () => SQLiteColumn) {
  return text().notNull().references(target, { onDelete: "cascade" });
}
