/**
 * Opaque cursors for newest-first keyset pages over (timestamp, id). A cursor names the last row a page
 * returned, so rows inserted meanwhile (all newer) can neither shift nor repeat the following pages, which an
 * offset would do.
 */
import { StoreError } from "./store-error.js";

/** One page of a keyset listing, newest first. */
export interface Page<T> {
  items: T[];
  /** Pass back to get the following page; null on the last page. */
  next_cursor: string | null;
}

/** The sort key of the last row on a page. */
export interface KeysetPosition {
  at: string;
  id: string;
}

/** Encodes a position as an opaque URL-safe string. */
export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id]), "utf8").toString("base64url");
}

/** Decodes a cursor made by encodeCursor; anything else is an INVALID_CURSOR StoreError. */
export function decodeCursor(cursor: string): KeysetPosition {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(decoded) && decoded.length === 2 && decoded.every((part) => typeof part === "string")) {
      return { at: decoded[0] as string, id: decoded[1] as string };
    }
  } catch {
    // Falls through to the one error below: the caller only needs to know the cursor is unusable.
  }
  throw new StoreError("INVALID_CURSOR", "the cursor is not one this service issued");
}

/**
 * Cuts a page out of `limit + 1` rows fetched newest first: the extra row only proves that another page
 * exists, so the last page gets a null cursor without a second query.
 */
export function pageFromRows<T>(rows: T[], limit: number, keyOf: (row: T) => KeysetPosition): {
  items: T[];
  next_cursor: string | null;
} {
  if (rows.length <= limit) return { items: rows, next_cursor: null };
  const items = rows.slice(0, limit);
  return { items, next_cursor: encodeCursor(keyOf(items[items.length - 1]!)) };
}
