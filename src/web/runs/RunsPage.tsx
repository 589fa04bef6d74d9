/**
 * Runs, newest first: filtered by state and by a part of the workflow name, loaded a page at a time over the
 * service's cursors as the list scrolls (and by a "Load more" button, for keyboards), refreshed while runs
 * are active. Each row links to its run page and shows its duration and job counts.
 */
import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { RUN_STATUS_WORDS, runsQuery, type RunStatus } from "../api/runs.js";
import { Listing } from "../components/Listing.js";
import { formatDuration, fullTime } from "../components/formatting.js";
import { elapsedMs } from "./format.js";
import "./runs.css";

const STATES = Object.keys(RUN_STATUS_WORDS) as RunStatus[];

export function RunsPage() {
  const [status, setStatus] = useState<RunStatus | "">("");
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

  const filtered = status !== "" || q !== "";
  return (
    <section aria-labelledby="runs-title">
      <div className="page-head">
        <h1 id="runs-title">Runs{total !== undefined ? <span className="count"> {total}</span> : null}</h1>
        <div className="filters">
          <input type="search" aria-label="Search runs by workflow name" placeholder="Search by workflow name" value={typed} onChange={(event) => setTyped(event.target.value)} />
          <label>
            State{" "}
            <select value={status} onChange={(event) => setStatus(event.target.value as RunStatus | "")}>
              <option value="">all</option>
              {STATES.map((state) => (
                <option key={state} value={state}>
                  {RUN_STATUS_WORDS[state]}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      <Listing
        query={runs}
        rows={items}
        rowKey={(run) => run.id}
        className="runs-listing"
        empty={filtered ? `No runs${status ? ` in state ${status}` : ""}${q ? ` matching “${q}”` : ""} yet.` : "No runs yet. Open a pipeline and choose Run to start one."}
        columns={[
          {
            header: "Workflow",
            cell: (run) => (
              <>
                <Link to={`/runs/${run.id}`} className="run-link">
                  <strong>{run.workflow_name}</strong>
                </Link>
                {run.dry_run ? <span className="muted"> · dry run</span> : null}
                {run.retry_of ? <span className="muted"> · retry</span> : null}
                <div className="muted mono">{run.id}</div>
              </>
            ),
          },
          { header: "State", cell: (run) => <span className={`badge badge-${run.status}`}>{run.status}</span> },
          { header: "Jobs", cell: (run) => <JobCounts counts={run.counts} /> },
          { header: "Duration", cell: (run) => formatDuration(elapsedMs(run.started_at, run.finished_at)) },
          { header: "Created", cell: (run) => <time dateTime={run.created_at}>{fullTime(run.created_at)}</time> },
        ]}
        pages={{
          hasNextPage: runs.hasNextPage,
          isFetchingNextPage: runs.isFetchingNextPage,
          fetchNextPage: runs.fetchNextPage,
          auto: true,
          className: "list-end",
          summary: !runs.hasNextPage && items.length > 50 ? <span className="muted">All {items.length} runs shown.</span> : null,
        }}
      />
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
