/** Turns a free-text search into LIKE patterns that both SQLite and PostgreSQL evaluate the same way. */

/** The escape character the patterns use; queries pass it as `ESCAPE '\'`. */
export const LIKE_ESCAPE = "\\";

/** At most this many words count, so a pasted paragraph cannot build an enormous query. */
const MAX_TERMS = 8;

/** The distinct lower-cased words of a search, at most eight; the store and the ranking use the same ones. */
export function searchWords(text: string): string[] {
  return [...new Set(text.toLowerCase().split(/\s+/).filter((word) => word.length > 0))].slice(0, MAX_TERMS);
}

/**
 * One `%word%` pattern per distinct lower-cased word, with `%`, `_` and the escape character escaped so
 * they match themselves.
 */
export function likePatterns(text: string): string[] {
  return searchWords(text).map((word) => `%${word.replace(/[\\%_]/g, (char) => `\\${char}`)}%`);
}
