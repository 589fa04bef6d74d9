/**
 * What every area's PostgreSQL implementation shares: the database type, the search and keyset fragments,
 * and the mapping of constraint failures to store errors.
 */
import { and, eq, lt, or, sql, type SQL } from "drizzle-orm";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { PgColumn } from "drizzle-orm/pg-core";
import { users } from "./accounts/schema-pg.js";
import { constraintViolation } from "./constraint-violation.js";
import type { KeysetPosition } from "./keyset-cursor.js";
import { LIKE_ESCAPE } from "./search-terms.js";
import { notFound, StoreError } from "./store-error.js";

/** The drizzle database over the connection pool (no relational schema: areas query their tables directly). */
export type PgDb = PostgresJsDatabase<Record<string, never>>;

/** The database or a transaction on it: what a read inside a write needs. */
export type PgReader = Pick<PgDb, "select">;

/** A case-insensitive "contains" test against a pattern from likePatterns; json columns are matched as text. */
export function contains(column: PgColumn, pattern: string): SQL {
  return sql`${column}::text ilike ${pattern} escape ${LIKE_ESCAPE}`;
}

/** Whether any of the columns contains any of the patterns. */
export function containsAny(columns: PgColumn[], patterns: string[]): SQL | undefined {
  return or(...patterns.flatMap((pattern) => columns.map((column) => contains(column, pattern))));
}

/** Rows after a keyset position in newest-first order: older, or as old with a smaller id. */
export function olderThan(at: PgColumn, id: PgColumn, after: KeysetPosition | undefined): SQL | undefined {
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
export async function insertForUser(insert: () => Promise<unknown>, userId: string, conflict: string): Promise<void> {
  try {
    await insert();
  } catch (error) {
    const violated = constraintViolation(error);
    if (violated === "foreign_key") throw notFound("user", userId);
    if (violated === "unique") throw new StoreError("CONFLICT", conflict);
    throw error;
  }
}

/** Inserts a row, turning a taken key into CONFLICT with `message`. */
export async function insertOrConflict(insert: () => Promise<unknown>, message: string): Promise<void> {
  try {
    await insert();
  } catch (error) {
    if (constraintViolation(error) === "unique") throw new StoreError("CONFLICT", message);
    throw error;
  }
}
