/**
 * The one error type the store raises for expected failures, so services can map a code to their own
 * error table without looking at driver messages.
 */

/** What went wrong, independent of SQLite or PostgreSQL. */
export type StoreErrorCode = "NOT_FOUND" | "CONFLICT" | "INVALID_CURSOR";

/** An expected store failure: a missing row, a lost optimistic race or a duplicate key, or a bad cursor. */
export class StoreError extends Error {
  override readonly name = "StoreError";

  constructor(
    readonly code: StoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Whether `error` is a StoreError, optionally with the given code. */
export function isStoreError(error: unknown, code?: StoreErrorCode): error is StoreError {
  return error instanceof StoreError && (code === undefined || error.code === code);
}

/** A NOT_FOUND error naming the kind of record and its key. */
export function notFound(kind: string, key: string | number): StoreError {
  return new StoreError("NOT_FOUND", `${kind} ${key} not found`);
}
