/**
 * The run's jobs as a table that scrolls through any number of them: rows are virtualised (only those on
 * screen exist in the page) and fetched from the service a page at a time as they scroll into view, sorted
 * (click a column header) and filtered (search, state, the selected rule) by the service. Each row says why
 * the job ran or was skipped; choosing a job opens its log.
 */
import { keepPreviousData, useQueries } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState } from "react";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { formatCount, formatDuration } from "../components/formatting.js";
import { JOB_STATUS_WORDS, jobPageQuery, type JobRow, type JobSort, type JobStatus } from "../api/runs.js";

const PAGE = 200;
const ROW_HEIGHT = 34;
/** The table's scrolling height at most (about 13 rows). */
const MAX_BODY = 440;
const JOB_STATES = Object.keys(JOB_STATUS_WORDS) as JobStatus[];

const COLUMNS: { sort: JobSort; label: string; className: string }[] = [
  { sort: "order", label: "#", className: "col-index" },
  { sort: "job", label: "Job", className: "col-job" },
  { sort: "rule", label: "Rule", className: "col-rule" },
  { sort: "status", label: "State", className: "col-state" },
  { sort: "duration_ms", label: "Duration", className: "col-duration" },
  { sort: "started_at", label: "Started", className: "col-started" },
];

export function JobTable({ runId, rule, onRuleChange, selectedJob, onSelectJob, rules }: { runId: string; rule?: string; onRuleChange: (rule: string | undefined) => void; selectedJob?: string; onSelectJob: (job: JobRow) => void; rules: string[] }) {
  const [sort, setSort] = useState<JobSort>("order");
  const [order, setOrder] = useState<"asc" | "desc">("asc");
  const [typed, setTyped] = useState("");
  const [q, setQ] = useState("");
  const [status, setStatus] = useState<JobRow["status"] | "">("");
  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), 250);
    return () => clearTimeout(timer);
  }, [typed]);

  const filter = useMemo(() => ({ sort, order, ...(q ? { q } : {}), ...(status ? { status } : {}), ...(rule ? { rule } : {}) }), [sort, order, q, status, rule]);
  const scroller = useRef<HTMLDivElement>(null);
  const [total, setTotal] = useState(0);
  // The virtualizer answers fresh functions on every render by design; nothing here memoizes what it answers.
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual, used as its documentation shows
  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  // The pages the rows on screen fall in (the first always: it tells the total).
  const pageIndexes = useMemo(() => {
    const wanted = new Set([0]);
    for (const item of items) wanted.add(Math.floor(item.index / PAGE));
    return [...wanted].sort((a, b) => a - b);
  }, [items]);
  const pages = useQueries({
    queries: pageIndexes.map((page) => ({ ...jobPageQuery(runId, filter, page, PAGE), placeholderData: page === 0 ? keepPreviousData : undefined })),
  });
  const firstPage = pages[0];
  const latestTotal = firstPage?.data?.total;
  useEffect(() => {
    if (latestTotal !== undefined) setTotal(latestTotal);
  }, [latestTotal]);
  const rows = new Map<number, JobRow>();
  pages.forEach((page, at) => page.data?.items.forEach((job, offset) => rows.set(pageIndexes[at]! * PAGE + offset, job)));
  // A new filter or sort starts at the top.
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [filter]);

  const onHeader = (column: JobSort) => {
    if (column === sort) setOrder(order === "asc" ? "desc" : "asc");
    else {
      setSort(column);
      setOrder(column === "duration_ms" ? "desc" : "asc");
    }
  };
  const error = pages.find((page) => page.error)?.error;
  return (
    <div className="job-table">
      <div className="table-tools">
        <input type="search" aria-label="Search jobs" placeholder="Search jobs by name" value={typed} onChange={(event) => setTyped(event.target.value)} />
        <label>
          State{" "}
          <select value={status} onChange={(event) => setStatus(event.target.value as JobRow["status"] | "")}>
            <option value="">any</option>
            {JOB_STATES.map((state) => (
              <option key={state} value={state}>
                {JOB_STATUS_WORDS[state]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Rule{" "}
          <select value={rule ?? ""} onChange={(event) => onRuleChange(event.target.value || undefined)}>
            <option value="">any</option>
            {rules.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        <span className="muted" aria-live="polite">
          {firstPage?.data ? `${formatCount(total)} job${total === 1 ? "" : "s"}` : "Loading jobs…"}
        </span>
      </div>
      {error ? <ErrorNotice error={error} /> : null}
      {firstPage?.data && total === 0 ? <p className="empty">{q || status || rule ? "No job matches these filters." : "The engine has not named any job yet."}</p> : null}
      <div role="table" aria-label="Jobs" aria-rowcount={total + 1} className="vtable">
        <div role="rowgroup">
          <div role="row" aria-rowindex={1} className="vrow vhead">
            {COLUMNS.map((column) => (
              <div key={column.sort} role="columnheader" className={column.className} aria-sort={sort === column.sort ? (order === "asc" ? "ascending" : "descending") : "none"}>
                <button type="button" className="sort-button" onClick={() => onHeader(column.sort)}>
                  {column.label}
                  <span aria-hidden="true">{sort === column.sort ? (order === "asc" ? " ▲" : " ▼") : ""}</span>
                </button>
              </div>
            ))}
            <div role="columnheader" className="col-reason">
              Why
            </div>
          </div>
        </div>
        <div ref={scroller} className="vbody" role="rowgroup" tabIndex={-1} style={{ height: Math.max(3 * ROW_HEIGHT, Math.min(MAX_BODY, total * ROW_HEIGHT + 2)) }}>
          <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {items.map((item) => {
              const job = rows.get(item.index);
              return (
                <div key={item.key} role="row" aria-rowindex={item.index + 2} className={`vrow${job && job.job === selectedJob ? " selected" : ""}`} style={{ position: "absolute", top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}>
                  {job ? (
                    <>
                      <div role="cell" className="col-index mono muted">
                        {job.index + 1}
                      </div>
                      <div role="cell" className="col-job">
                        <button type="button" className="link-button mono" onClick={() => onSelectJob(job)} aria-label={`Show the log of ${job.job}`} title={job.job}>
                          {job.job}
                        </button>
                      </div>
                      <div role="cell" className="col-rule">
                        {job.rule}
                      </div>
                      <div role="cell" className="col-state">
                        <span className={`badge badge-${job.status}`}>{job.status.replace("_", " ")}</span>
                      </div>
                      <div role="cell" className="col-duration mono">
                        {formatDuration(job.duration_ms)}
                      </div>
                      <div role="cell" className="col-started muted">
                        {job.started_at ? new Date(job.started_at).toLocaleTimeString() : "—"}
                      </div>
                      <div role="cell" className="col-reason muted" title={job.reason?.text}>
                        {job.exit_code != null && job.exit_code !== 0 ? <span className="failed mono">exit {job.exit_code} · </span> : null}
                        {job.reason?.text ?? ""}
                      </div>
                    </>
                  ) : (
                    <div role="cell" className="muted loading-row">
                      Loading…
                    </div>
                  )}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
