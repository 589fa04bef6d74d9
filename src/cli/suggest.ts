/**
 * "Did you mean" for the command line: the nearest command or option to a mistyped one, by edit distance
 * (the same measure `strand lint` uses for unknown keys), with a prefix match as a fallback for short typos.
 */
import { nearestKey } from "../engine/nearest-key.js";
import { UsageError, type OptionSpec } from "./args.js";

/** The known name closest to `typed`, or null when none is close enough to be a likely typo. */
export function nearestName(typed: string, known: readonly string[]): string | null {
  return nearestKey(typed, known) ?? (typed.length >= 3 ? (known.find((name) => name.startsWith(typed)) ?? null) : null);
}

/** The usage error for an option the command does not have, naming the nearest one it has. */
export function unknownOptionError(shown: string, specs: readonly OptionSpec[]): UsageError {
  const long = shown.replace(/^-+/, "");
  const near = shown.startsWith("--") ? nearestName(long, specs.map((spec) => spec.name)) : null;
  return new UsageError(`unknown option ${shown}`, near ? `did you mean --${near}? (run with --help to see the options)` : "run with --help to see the options");
}
