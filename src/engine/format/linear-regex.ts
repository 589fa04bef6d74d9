/**
 * User-supplied regular expressions (`[wildcard_constraints]`), compiled for RE2's linear-time matcher
 * (the re2js port), so no pattern and no value can make a match take exponential time: `(a|a)*$` against
 * thirty `a`s and a `!` answers at once. RE2 syntax is the syntax of oxo-flow's own regex engine (Rust's
 * `regex`): no look-around and no back-references.
 */
import { RE2JS } from "re2js";

/** The longest pattern accepted. */
export const MAX_PATTERN_LENGTH = 1000;

/** A compiled user pattern: an unanchored search, like Rust's `is_match`. */
export interface LinearRegex {
  readonly source: string;
  /** Whether the pattern matches anywhere in `text`. */
  test(text: string): boolean;
}

/** Why a pattern is refused, in words for an error message; undefined when it compiles. */
export function linearRegexProblem(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return `it is ${pattern.length} characters long (at most ${MAX_PATTERN_LENGTH})`;
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/^error parsing regexp: /, "");
  }
}

/** Compiles a pattern checked with `linearRegexProblem`; matches of the same text are remembered. */
export function compileLinearRegex(pattern: string): LinearRegex {
  const compiled = RE2JS.compile(pattern);
  // Constraints are tested against the same few sample and value names over and over.
  const seen = new Map<string, boolean>();
  return {
    source: pattern,
    test(text: string): boolean {
      let result = seen.get(text);
      if (result === undefined) {
        result = compiled.matcher(text).find();
        if (seen.size < 100_000) seen.set(text, result);
      }
      return result;
    },
  };
}
