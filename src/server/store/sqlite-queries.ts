/**
 * What every area's SQLite implementation shares: the database type, the search and keyset fragments, and
 * the mapping of constraint failures to store errors.
 */
import { and, eq, lt, or, sql, type SQL } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { users } from "./accounts/schema-sqlite.js";
import { constraintViolation } from "./constraint-violation.js";
import type { KeysetPosition } from "./keyset-cursor.js";
import { LIKE_ESCAPE } from "./search-terms.js";
import { notFound, StoreError } from "./store-error.js";

/** The drizzle database over the embedded file (no relational schema: areas query their tables directly). */
export type SqliteDb = BetterSQLite3Database<Record<string, never>>;

/** The database or a transaction on it: what a read inside a write needs. */
export type SqliteReader = Pick<SqliteDb, "select">;

/** A case-insensitive "contains" test against a pattern from likePatterns (LIKE ignores ASCII case in SQLite). */
export function contains(column: SQLiteColumn, pattern: string): SQL {
  return sql`${column} like ${pattern} escape ${LIKE_ESCAPE}`;
}

/** Whether any of the columns contains any of the patterns. */
export function containsAny(columns: SQLiteColumn[], patterns: string[]): SQL | undefined {
  return or(...patterns.flatMap((pattern) => columns.map((column) => contains(column, pattern))));
}

/** Rows after a keyset position in newest-first order: older, or as old with a smaller id. */
export function olderThan(at: SQLiteColumn, id: SQLiteColumn, after: KeysetPosition | undefined): SQL | undefined {
  if (after === undefined) return undefined;
  return or(lt(at, after.at), and(eq(at, after.at), lt(id, after.id)));
}

/**
 * `id` when it names an account, else null: the value of a row's cascading `user_id`, so rows of `local`
 * (personal mode, no accounts) and of the `server` scope are kept while an account's go with it.
 */
export function accountIdOf(id: string): SQL<string | null> {
  return sql<string | null>`(select ${sql.identifier("id")} from ${users} where ${sql.identifier("id")} = ${id})`;
}

/** Inserts a row that belongs to an account: NOT_FOUND when the account does not exist, CONFLICT on a taken key. */
export function insertForUser(insert: () => unknown, userId: string, conflict: string): void {
  try {
    insert();
  } catch (error) {
    const violated = constraintViolation(error);
    if (violated === "foreign_key") throw notFound("user", userId);
    if (violated === "unique") throw new StoreError("CONFLICT", conflict);
    throw error;
  }
}

/** Inserts a row, turning a taken key into CONFLICT with `message`. */
export function insertOrConflict(insert: () => unknown, message: string): void {
  try {
    insert();
  } catch (error) {
    if (constraintViolation(error) === "unique") throw new StoreError("CONFLICT", message);
    throw error;
  }
}
