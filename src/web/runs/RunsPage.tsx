/** Runs, newest first, filtered by state, a page at a time over the service's cursors. */
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, dataOf } from "../api.js";
import { QueryState } from "../components/QueryState.js";

const STATES = ["queued", "running", "paused", "completed", "failed", "cancelled"] as const;
type State = (typeof STATES)[number];

export function RunsPage() {
  const [status, setStatus] = useState<State | "">("");
  const runs = useInfiniteQuery({
    queryKey: ["runs", status],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) => dataOf(await api.GET("/api/runs", { params: { query: { limit: 50, ...(pageParam ? { cursor: pageParam } : {}), ...(status ? { status } : {}) } } })),
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    refetchInterval: 5_000,
  });
  const items = runs.data?.pages.flatMap((page) => page.items) ?? [];
  const total = runs.data?.pages[0]?.total;
  return (
    <section aria-labelledby="runs-title">
      <div className="page-head">
        <h1 id="runs-title">Runs{total !== undefined ? <span className="count"> {total}</span> : null}</h1>
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
      <QueryState query={runs} empty={runs.data && items.length === 0 ? `No runs${status ? ` in state ${status}` : ""} yet.` : null} />
      {items.length > 0 ? (
        <table className="listing">
          <thead>
            <tr>
              <th scope="col">Workflow</th>
              <th scope="col">State</th>
              <th scope="col">Jobs</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {items.map((run) => (
              <tr key={run.id}>
                <td>
                  <strong>{run.workflow_name}</strong>
                  <div className="muted mono">{run.id}</div>
                </td>
                <td>
                  <span className={`badge badge-${run.status}`}>{run.status}</span>
                </td>
                <td>
                  {run.counts.completed}/{run.counts.total}
                  {run.counts.failed > 0 ? <span className="failed"> · {run.counts.failed} failed</span> : null}
                </td>
                <td>
                  <time dateTime={run.created_at}>{new Date(run.created_at).toLocaleString()}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {runs.hasNextPage ? (
        <button type="button" onClick={() => void runs.fetchNextPage()} disabled={runs.isFetchingNextPage}>
          {runs.isFetchingNextPage ? "Loading…" : "Load more"}
        </button>
      ) : null}
    </section>
  );
}
