/** Turns a free-text search into LIKE patterns that both SQLite and PostgreSQL evaluate the same way. */

/** The escape character the patterns use; queries pass it as `ESCAPE '\'`. */
export const LIKE_ESCAPE = "\\";

/** At most this many words count, so a pasted paragraph cannot build an enormous query. */
const MAX_TERMS = 8;

/**
 * One `%word%` pattern per distinct lower-cased word, with `%`, `_` and the escape character escaped so
 * they match themselves.
 */
export function likePatterns(text: string): string[] {
  const words = [...new Set(text.toLowerCase().split(/\s+/).filter((word) => word.length > 0))];
  return words.slice(0, MAX_TERMS).map((word) => `%${word.replace(/[\\%_]/g, (char) => `\\${char}`)}%`);
}
