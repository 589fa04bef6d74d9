/**
 * The one error type the store raises for expected failures, so services can map a code to their own
 * error table without looking at driver messages.
 */

/** What went wrong, independent of SQLite or PostgreSQL. */
export type StoreErrorCode = "NOT_FOUND" | "CONFLICT" | "INVALID_CURSOR" | "QUOTA_EXCEEDED";

/** An expected store failure: a missing row, a lost optimistic race or a duplicate key, a bad cursor, a full quota. */
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

/** The QUOTA_EXCEEDED error of a write that would keep `total` bytes of revisions where `limit` are allowed. */
export function quotaExceeded(scope: "pipeline" | "owner", total: number, limit: number): StoreError {
  const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  const whose = scope === "pipeline" ? "this pipeline's revisions" : "the revisions of all your pipelines";
  return new StoreError("QUOTA_EXCEEDED", `saving would make ${whose} hold ${mb(total)}, over the limit of ${mb(limit)}`);
}

/** Checks a write against a quota: `used` bytes are kept already and `added` more would be. */
export function checkQuota(scope: "pipeline" | "owner", used: number, added: number, limit: number | undefined): void {
  if (limit !== undefined && used + added > limit) throw quotaExceeded(scope, used + added, limit);
}
