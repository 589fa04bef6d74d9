/** A time as people read it in a table: the local date and time, how long ago or ahead, the exact instant on hover. */
import { relativeTime } from "./formatting.js";
import "./components.css";

const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A time shown as its local date and time with how long ago (or ahead) after it, or `empty` when there is none. */
export function When({ iso, empty = "never" }: { iso: string | null; empty?: string }) {
  if (!iso) return <span className="muted">{empty}</span>;
  return (
    <time dateTime={iso} title={iso} className="when">
      {DATE_TIME.format(new Date(iso))}
      <span className="muted"> · {relativeTime(iso)}</span>
    </time>
  );
}
