/**
 * Runs, newest first: filtered by state and by a part of the workflow name, loaded a page at a time over the
 * service's cursors as the list scrolls (and by a "Load more" button, for keyboards), refreshed while runs
 * are active. Each row links to its run page and shows its duration and job counts.
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { runsQuery } from "../api/runs.js";
import { QueryState } from "../components/QueryState.js";
import { formatDuration, fullTime } from "../components/formatting.js";
import { elapsedMs } from "./format.js";
import "./runs.css";

const STATES = ["queued", "running", "paused", "completed", "failed", "cancelled"] as const;
type State = (typeof STATES)[number];

export function RunsPage() {
  const [status, setStatus] = useState<State | "">("");
  const [typed, setTyped] = useState("");
  const [q, setQ] = useState("");
  // The search waits for a pause in typing, so each keystroke is not a request.
  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), 250);
    return () => clearTimeout(timer);
  }, [typed]);
  const runs = useInfiniteQuery(runsQuery({ ...(status ? { status } : {}), ...(q ? { q } : {}) }));
  const items = runs.data?.pages.flatMap((page) => page.items) ?? [];
  const total = runs.data?.pages[0]?.total;

  // Scrolling near the end loads the next page.
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = runs;
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    }, { rootMargin: "400px" });
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const filtered = status !== "" || q !== "";
  return (
    <section aria-labelledby="runs-title">
      <div className="page-head">
        <h1 id="runs-title">Runs{total !== undefined ? <span className="count"> {total}</span> : null}</h1>
        <div className="filters">
          <input type="search" aria-label="Search runs by workflow name" placeholder="Search by workflow name" value={typed} onChange={(event) => setTyped(event.target.value)} />
          <label>
            State{" "}
            <select value={status} onChange={(event) => setStatus(event.target.value as State | "")}>
              <option value="">all</option>
              {STATES.map((state) => (
                <option key={state} value={state}>
                  {state}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      <QueryState
        query={runs}
        empty={
          runs.data && items.length === 0
            ? filtered
              ? `No runs${status ? ` in state ${status}` : ""}${q ? ` matching “${q}”` : ""} yet.`
              : "No runs yet. Open a pipeline and choose Run to start one."
            : null
        }
      />
      {items.length > 0 ? (
        <table className="listing runs-listing">
          <thead>
            <tr>
              <th scope="col">Workflow</th>
              <th scope="col">State</th>
              <th scope="col">Jobs</th>
              <th scope="col">Duration</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {items.map((run) => (
              <tr key={run.id}>
                <td>
                  <Link to={`/runs/${run.id}`} className="run-link">
                    <strong>{run.workflow_name}</strong>
                  </Link>
                  {run.dry_run ? <span className="muted"> · dry run</span> : null}
                  {run.retry_of ? <span className="muted"> · retry</span> : null}
                  <div className="muted mono">{run.id}</div>
                </td>
                <td>
                  <span className={`badge badge-${run.status}`}>{run.status}</span>
                </td>
                <td>
                  <JobCounts counts={run.counts} />
                </td>
                <td>{formatDuration(elapsedMs(run.started_at, run.finished_at))}</td>
                <td>
                  <time dateTime={run.created_at}>{fullTime(run.created_at)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <div ref={sentinel} className="list-end">
        {runs.hasNextPage ? (
          <button type="button" onClick={() => void runs.fetchNextPage()} disabled={runs.isFetchingNextPage}>
            {runs.isFetchingNextPage ? "Loading…" : "Load more"}
          </button>
        ) : items.length > 50 ? (
          <span className="muted">All {items.length} runs shown.</span>
        ) : null}
      </div>
    </section>
  );
}

/** A run's jobs: done of all, with a thin bar, and the failed ones called out. */
function JobCounts({ counts }: { counts: { total: number; completed: number; failed: number; running: number; skipped: number } }) {
  const done = counts.completed + counts.skipped;
  return (
    <div className="job-counts">
      <span>
        {done}/{counts.total}
        {counts.running > 0 ? <span className="muted"> · {counts.running} running</span> : null}
        {counts.failed > 0 ? <span className="failed"> · {counts.failed} failed</span> : null}
      </span>
      {counts.total > 0 ? (
        <span className="mini-bar" aria-hidden="true">
          <span className="mini-bar-ok" style={{ width: `${(100 * done) / counts.total}%` }} />
          <span className="mini-bar-bad" style={{ width: `${(100 * counts.failed) / counts.total}%` }} />
        </span>
      ) : null}
    </div>
  );
}
