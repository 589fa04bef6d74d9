/**
 * A log of the run: one job's stdout or stderr, or the engine's log. It reads the log a page at a time from
 * `GET /api/runs/{id}/logs` (offset paging) and, while the run works, keeps asking for what was written
 * since, scrolling along unless the reader has scrolled up. This is a loop over the typed client rather than
 * a query: each answer extends the previous one instead of replacing it.
 */
import { useEffect, useRef, useState } from "react";
import { fetchLogPage } from "../api/runs.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { formatCount } from "../components/formatting.js";

type Stream = "stdout" | "stderr" | "engine";

/** Lines kept in the page; older ones are dropped from view (the file keeps them). */
const MAX_LINES = 20_000;
/** How often a followed log asks for new lines. */
const FOLLOW_MS = 3_000;

export function LogViewer({ runId, job, follow, initialStream }: { runId: string; job?: string; follow: boolean; initialStream?: Stream }) {
  const [stream, setStream] = useState<Stream>(initialStream ?? (job ? "stdout" : "engine"));
  const [lines, setLines] = useState<string[]>([]);
  const [dropped, setDropped] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<Error | null>(null);
  const [stuck, setStuck] = useState(true);
  const view = useRef<HTMLPreElement>(null);
  // (The page gives each job's log a viewer of its own, so `job` and `initialStream` never change here.)

  // Another source, or following turned on again (the reading stopped at the end) or off: read from the
  // start. The shown lines are cleared while rendering, the reading restarts in the effect below.
  const source = `${runId}\u0001${job ?? ""}\u0001${stream}\u0001${follow}`;
  const [readingFrom, setReadingFrom] = useState(source);
  if (readingFrom !== source) {
    setReadingFrom(source);
    setLines([]);
    setDropped(0);
    setLoading(true);
    setError(null);
    setStuck(true);
  }

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let offset: number | undefined;
    const read = async (): Promise<void> => {
      if (stopped) return;
      try {
        const page = await fetchLogPage(runId, { ...(job ? { job } : {}), stream, limit: 1000, ...(offset !== undefined ? { offset } : {}) });
        if (stopped) return;
        offset = page.next_offset;
        if (page.lines.length > 0) {
          setLines((current) => {
            const next = current.concat(page.lines);
            if (next.length <= MAX_LINES) return next;
            setDropped((count) => count + next.length - MAX_LINES);
            return next.slice(next.length - MAX_LINES);
          });
        }
        setLoading(false);
        setError(null);
        // Behind: read on at once. At the end: wait for more while the run works, else stop.
        if (!page.eof) return void (timer = setTimeout(() => void read(), 0));
        if (follow) timer = setTimeout(() => void read(), FOLLOW_MS);
      } catch (failure) {
        if (stopped) return;
        setLoading(false);
        setError(failure as Error);
        if (follow) timer = setTimeout(() => void read(), FOLLOW_MS * 2);
      }
    };
    void read();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [runId, job, stream, follow]);

  // New lines keep the view at the bottom, unless the reader scrolled up to read.
  useEffect(() => {
    const element = view.current;
    if (element && stuck) element.scrollTop = element.scrollHeight;
  }, [lines, stuck]);

  const onScroll = () => {
    const element = view.current;
    if (element) setStuck(element.scrollTop + element.clientHeight >= element.scrollHeight - 24);
  };

  const title = job ? `Log of ${job}` : "Engine log";
  return (
    <div className="log-viewer">
      <div className="log-head">
        <h3>{title}</h3>
        {job ? (
          <div role="radiogroup" aria-label="Stream" className="segmented">
            {(["stdout", "stderr"] as const).map((name) => (
              <label key={name} className={stream === name ? "on" : undefined}>
                <input type="radio" name={`stream-${runId}`} value={name} checked={stream === name} onChange={() => setStream(name)} />
                {name}
              </label>
            ))}
          </div>
        ) : null}
        <span className="muted" aria-live="polite">
          {follow ? "following" : ""}
          {dropped > 0 ? ` · ${formatCount(dropped)} earlier lines not shown` : ""}
        </span>
        {!stuck ? (
          <button type="button" onClick={() => setStuck(true)}>
            Jump to the end
          </button>
        ) : null}
      </div>
      {error ? <ErrorNotice error={error} /> : null}
      <pre ref={view} className="log-lines" tabIndex={0} aria-label={`${title}${job ? ` (${stream})` : ""}`} onScroll={onScroll}>
        {loading ? "Loading…" : lines.length === 0 ? (follow ? "Nothing written yet; new lines appear here." : "This log is empty.") : lines.join("\n")}
      </pre>
    </div>
  );
}
