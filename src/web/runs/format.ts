/** The run pages' own helpers: a run's elapsed time and config values read as TOML. (Durations, sizes, times and counts: components/formatting.ts.) */

/** The time between two instants (to now when the second is missing), or null before the first. */
export function elapsedMs(start: string | null | undefined, end: string | null | undefined, now = Date.now()): number | null {
  if (!start) return null;
  return Math.max(0, (end ? Date.parse(end) : now) - Date.parse(start));
}

/**
 * A config override's text read as a TOML value: `true`/`false`, an integer or float, a quoted string
 * (`"x"` or `'x'`); anything else is taken as a bare string, as `--arg KEY=VALUE` does.
 */
export function tomlValue(text: string): string | number | boolean {
  const value = text.trim();
  if (value === "true") return true;
  if (value === "false") return false;
  if (/^[+-]?(\d[\d_]*)$/.test(value)) return Number(value.replace(/_/g, ""));
  if (/^[+-]?(\d[\d_]*)?\.\d+([eE][+-]?\d+)?$|^[+-]?\d+[eE][+-]?\d+$/.test(value)) return Number(value.replace(/_/g, ""));
  const quoted = /^"(.*)"$/.exec(value) ?? /^'(.*)'$/.exec(value);
  if (quoted) return quoted[1]!;
  return value;
}

/** Which type a config override will be sent as, for the form's hint. */
export function tomlKind(text: string): string {
  const value = tomlValue(text);
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "float";
  return "string";
}
