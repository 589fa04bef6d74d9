/** How the run pages write durations, sizes, times and config values. */

/** A duration in the largest fitting units: `850 ms`, `12.4 s`, `3 m 05 s`, `2 h 14 m`. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms)) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} m ${String(Math.floor(seconds % 60)).padStart(2, "0")} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${String(minutes % 60).padStart(2, "0")} m`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** The time between two instants (to now when the second is missing), or null before the first. */
export function elapsedMs(start: string | null | undefined, end: string | null | undefined, now = Date.now()): number | null {
  if (!start) return null;
  return Math.max(0, (end ? Date.parse(end) : now) - Date.parse(start));
}

/** A size in binary units: `512 B`, `1.4 KiB`, `23 MiB`. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes == null) return "—";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A timestamp in the reader's locale and time zone. */
export function formatTime(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : "—";
}

/** A count with thousands separators. */
export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
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
