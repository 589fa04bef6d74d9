/** Times as people read them: the local date and time, how long ago or ahead, and the exact instant on hover. */

const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "3 minutes ago", "in 6 days", "now". */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return RELATIVE.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

/** A time shown as its local date and time with how long ago (or ahead) below, or `empty` when there is none. */
export function When({ iso, empty = "never" }: { iso: string | null; empty?: string }) {
  if (!iso) return <span className="muted">{empty}</span>;
  return (
    <time dateTime={iso} title={iso} className="when">
      {DATE_TIME.format(new Date(iso))}
      <span className="muted"> · {relativeTime(iso)}</span>
    </time>
  );
}
