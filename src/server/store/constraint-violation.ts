/**
 * Recognises constraint violations in SQLite and PostgreSQL driver errors, which drizzle wraps in its own
 * query error, so the stores can report a duplicate key as CONFLICT and a dangling reference as NOT_FOUND.
 */

/** The constraint a failed write broke, as far as the store cares. */
export type ConstraintKind = "unique" | "foreign_key";

const SQLITE_CODES: Record<string, ConstraintKind> = {
  SQLITE_CONSTRAINT_PRIMARYKEY: "unique",
  SQLITE_CONSTRAINT_UNIQUE: "unique",
  SQLITE_CONSTRAINT_FOREIGNKEY: "foreign_key",
};

// SQLSTATE classes from the PostgreSQL manual, appendix A.
const POSTGRES_CODES: Record<string, ConstraintKind> = {
  "23505": "unique",
  "23503": "foreign_key",
};

/** The kind of constraint `error` (or an error it wraps) reports, or undefined for any other error. */
export function constraintViolation(error: unknown): ConstraintKind | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") {
      const kind = SQLITE_CODES[code] ?? POSTGRES_CODES[code];
      if (kind !== undefined) return kind;
    }
    current = current.cause;
  }
  return undefined;
}
