/**
 * The canonical JSON form a plugin signature covers, after RFC 8785 (JSON Canonicalization Scheme): object
 * keys sorted by their UTF-16 code units, no whitespace, numbers written as ECMAScript writes them (the
 * shortest form that reads back as the same double; -0 as 0), strings escaped as JSON.stringify escapes them,
 * the whole encoded as UTF-8. Input outside I-JSON (non-finite numbers, lone surrogates) is refused rather
 * than written in a form another implementation would write differently.
 */

/** How deep a manifest may nest: far beyond any real manifest, low enough that recursion stays safe. */
export const MAX_CANONICAL_DEPTH = 64;

/** A value that has no canonical form (the message names where it is). */
export class CanonicalJsonError extends Error {}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function write(value: unknown, path: string, depth: number): string {
  if (depth > MAX_CANONICAL_DEPTH) throw new CanonicalJsonError(`${path} nests deeper than ${MAX_CANONICAL_DEPTH} levels`);
  if (value === null || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new CanonicalJsonError(`${path} is not a finite number`);
    return JSON.stringify(value);
  }
  if (typeof value === "string") {
    if (LONE_SURROGATE.test(value)) throw new CanonicalJsonError(`${path} holds a lone UTF-16 surrogate, which has no UTF-8 form`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item, index) => write(item, `${path}[${index}]`, depth + 1)).join(",")}]`;
  if (typeof value === "object") {
    const record = value as Record<string, unknown>;
    // Like JSON.stringify, a key whose value is undefined is absent (it cannot come from parsed JSON).
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys
      .map((key) => {
        if (LONE_SURROGATE.test(key)) throw new CanonicalJsonError(`a key of ${path} holds a lone UTF-16 surrogate`);
        return `${JSON.stringify(key)}:${write(record[key], `${path}.${key}`, depth + 1)}`;
      })
      .join(",")}}`;
  }
  throw new CanonicalJsonError(`${path} is a ${typeof value}, which JSON cannot hold`);
}

/** The canonical JSON text of a value (throws CanonicalJsonError for values outside I-JSON). */
export function canonicalJson(value: unknown): string {
  return write(value, "$", 0);
}

/** The canonical form as the UTF-8 bytes that are signed. */
export function canonicalBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(canonicalJson(value));
}
