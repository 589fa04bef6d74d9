/**
 * One run, live: its header (workflow, state, times, target, the run it retries) with the controls; why it
 * failed when it did; progress by rule, the DAG coloured by state, CPU and memory, a timeline of the jobs;
 * the job table (any number of jobs, paged by the service) beside the log of the chosen job or the engine;
 * and the results. Updates arrive over the event stream (useRunEvents) while the run is not over. Nothing
 * here asks for all jobs at once, so a run of 100,000 jobs opens as fast as a small one.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link, useParams } from "react-router";
import { DagView } from "../dag/DagView.js";
import type { DagNode } from "../dag/drawn-graph.js";
import { QueryState } from "../components/QueryState.js";
import { DiagnosticsPanel } from "./DiagnosticsPanel.js";
import { ExplainFailure } from "../ai/ExplainFailure.js";
import { formatCount, formatDuration, fullTime } from "../components/formatting.js";
import { elapsedMs } from "./format.js";
import { JobTable } from "./JobTable.js";
import { JobTimeline } from "./JobTimeline.js";
import { LogViewer } from "./LogViewer.js";
import { ResourceChart } from "./ResourceChart.js";
import { ResultsPanel } from "./ResultsPanel.js";
import { RuleProgress } from "./RuleProgress.js";
import { RunControls } from "./RunControls.js";
import { isTerminal, runDagQuery, runQuery, runStatusQuery, type RunDagStatus, type RunDetail, type RunStatusView } from "../api/runs.js";
import { useRunEvents, type LiveState } from "../api/run-events.js";
import "./runs.css";

/** The slow poll behind the event stream (a proxy may hold the stream back). */
const FALLBACK_POLL_MS = 15_000;

export function RunPage() {
  const { id = "" } = useParams();
  // A new run (a retry opened from this page) starts afresh: nothing chosen, no explanation asked.
  return <RunView key={id} id={id} />;
}

function RunView({ id }: { id: string }) {
  const run = useQuery({
    ...runQuery(id),
    refetchInterval: (query) => (isTerminal(query.state.data?.status) ? false : FALLBACK_POLL_MS),
  });
  const ended = isTerminal(run.data?.status);
  // Asked at once beside the run: the progress is what the page is opened for.
  const status = useQuery({
    ...runStatusQuery(id),
    refetchInterval: ended ? false : FALLBACK_POLL_MS,
  });
  // The graph and the timeline wait for the progress: on a huge run the service answers one at a time.
  const dag = useQuery({ ...runDagQuery(id), enabled: status.data !== undefined, staleTime: Infinity });
  const live = useRunEvents(id, run.data !== undefined && !ended);
  const [rule, setRule] = useState<string | undefined>();
  const [logJob, setLogJob] = useState<{ job: string; stream?: "stdout" | "stderr" } | undefined>();

  if (!run.data) {
    return (
      <div className="wide-page">
        <h1>Run</h1>
        <QueryState query={run} empty={null} />
      </div>
    );
  }
  const detail = run.data;
  const nodes = status.data?.nodes ?? [];
  const rules = nodes.length > 0 ? nodes.map((node) => node.rule) : (dag.data?.nodes ?? []).map((node) => node.rule);
  const openLog = (job: string, stream?: "stdout" | "stderr") => {
    setLogJob({ job, stream });
    document.getElementById("run-log")?.scrollIntoView({ behavior: "smooth", block: "nearest" });
  };

  return (
    <div className="wide-page run-page">
      <RunHeader run={detail} status={status.data} live={live} />
      {detail.status === "failed" ? (
        <section className="panel why-failed" aria-labelledby="why-title">
          <h2 id="why-title">Why did this fail?</h2>
          {detail.error ? <p className="run-error">{detail.error}</p> : null}
          <DiagnosticsPanel runId={id} onOpenLog={(job) => openLog(job, "stderr")} />
          <ExplainFailure runId={id} />
        </section>
      ) : detail.error ? (
        <p className="run-error panel">{detail.error}</p>
      ) : null}
      <div className="run-grid">
        <section className="panel" aria-labelledby="progress-title">
          <h2 id="progress-title">Progress by rule</h2>
          {status.error ? <QueryState query={status} empty={null} /> : <RuleProgress nodes={nodes} selected={rule} onSelect={setRule} />}
        </section>
        <section className="panel" aria-labelledby="resources-title">
          <h2 id="resources-title">CPU and memory</h2>
          {detail.remote ? (
            <p className="muted">
              This run works on cluster {detail.remote.cluster_id}: its processes are not sampled from here. The run's report has each rule's CPU time and peak memory, as the engine there recorded them.
            </p>
          ) : (
            <ResourceChart resources={status.data?.resources} sampledAt={status.dataUpdatedAt} running={detail.status === "running"} />
          )}
        </section>
      </div>
      <section className="panel" aria-labelledby="dag-title">
        <h2 id="dag-title">Graph</h2>
        <RunDag dag={dag.data} statusNodes={nodes} selected={rule} onSelect={setRule} />
      </section>
      <section className="panel" aria-labelledby="timeline-title">
        <h2 id="timeline-title">Timeline</h2>
        <JobTimeline runId={id} runStatus={detail.status} rules={rules} ready={status.data !== undefined} dryRun={detail.dry_run} />
      </section>
      <div className="jobs-and-log">
        <section className="panel" aria-labelledby="jobs-title">
          <h2 id="jobs-title">Jobs</h2>
          <JobTable runId={id} rule={rule} onRuleChange={setRule} rules={rules} selectedJob={logJob?.job} onSelectJob={(job) => openLog(job.job, job.status === "failed" ? "stderr" : undefined)} />
        </section>
        <section className="panel" aria-labelledby="log-title" id="run-log">
          <div className="log-section-head">
            <h2 id="log-title">Log</h2>
            {logJob ? (
              <button type="button" onClick={() => setLogJob(undefined)}>
                Show the engine log
              </button>
            ) : (
              <span className="muted">Choose a job to see its output.</span>
            )}
          </div>
          <LogViewer key={logJob ? `${logJob.job}:${logJob.stream ?? ""}` : "engine"} runId={id} job={logJob?.job} initialStream={logJob?.stream} follow={!ended} />
        </section>
      </div>
      <section className="panel" aria-labelledby="results-title">
        <h2 id="results-title">Results</h2>
        <ResultsPanel runId={id} ended={ended} />
      </section>
    </div>
  );
}

/** What a run on a remote cluster is doing there, in words. */
const REMOTE_PHASE_WORDS: Record<NonNullable<RunDetail["remote"]>["phase"], string> = {
  staging: "sending its files up",
  running: "running there",
  collecting: "bringing its results back",
  done: "done",
};

/** Where a run on a remote cluster runs, and the state of the service's connection to it while it goes. */
function RemotePlace({ remote, ended }: { remote: NonNullable<RunDetail["remote"]>; ended: boolean }) {
  const connection = remote.connection;
  const jobs = remote.scheduler === null ? "" : remote.scheduler === "none" ? ", jobs on its login node" : `, jobs on ${remote.scheduler}`;
  return (
    <>
      <div>
        <dt>Runs on</dt>
        <dd>
          cluster{" "}
          <Link to="/clusters" className="mono">
            {remote.cluster_id}
          </Link>
          {jobs}
          {remote.engine_job ? <span className="muted"> · its engine is job {remote.engine_job.id}{ended ? "" : remote.engine_job.state === "queued" ? ", waiting in the queue" : remote.engine_job.state === "running" ? ", running" : ", ended"}</span> : null}
          {ended && remote.phase === "done" ? null : <span className="muted"> · {REMOTE_PHASE_WORDS[remote.phase]}</span>}
          {remote.phase === "done" ? <span className="muted"> · results {remote.results === "pull" ? "brought back" : "left on the cluster"}</span> : null}
        </dd>
      </div>
      {connection && !ended ? (
        <div>
          <dt>Connection</dt>
          <dd className={`connection connection-${connection.state}`} role="status">
            {connection.state === "connected"
              ? "connected"
              : connection.state === "refused"
                ? `refused: ${connection.error ?? "the host key changed"}`
                : `${connection.state}${connection.attempts > 0 ? ` (attempt ${connection.attempts + 1})` : ""}${connection.error ? `: ${connection.error}` : ""}${connection.retry_at ? `; next try ${fullTime(connection.retry_at)}` : ""}`}
          </dd>
        </div>
      ) : null}
    </>
  );
}

/** The run's name, state, liveness, times, target and lineage, with its controls. */
function RunHeader({ run, status, live }: { run: RunDetail; status?: RunStatusView; live: LiveState }) {
  const ended = isTerminal(run.status);
  const now = useNow(!ended && run.started_at !== null);
  const target = run.target as { type?: string } & Record<string, unknown>;
  const options = Object.entries(target).filter(([key, value]) => key !== "type" && value !== undefined && value !== null && value !== "");
  // The status refreshes with every burst of job events, the run row only when the run changes state.
  const counts = status && status.nodes.length > 0 && !ended ? countsOf(status.nodes, run.counts.total) : run.counts;
  const running = counts.running;
  return (
    <header className="run-header panel">
      <div className="run-title">
        <h1>
          {run.workflow_name} <span className={`badge badge-${run.status}`}>{run.status}</span>
          {run.dry_run ? <span className="badge badge-dry">dry run</span> : null}
        </h1>
        <LiveIndicator live={live} ended={ended} />
      </div>
      <p className="muted mono run-id">{run.id}</p>
      <dl className="run-facts">
        <div>
          <dt>Created</dt>
          <dd>{fullTime(run.created_at)}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{fullTime(run.started_at)}</dd>
        </div>
        <div>
          <dt>Finished</dt>
          <dd>{fullTime(run.finished_at)}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatDuration(elapsedMs(run.started_at, run.finished_at, now))}</dd>
        </div>
        {run.remote ? (
          <RemotePlace remote={run.remote} ended={ended} />
        ) : (
          <div>
            <dt>Target</dt>
            <dd>
              {target.type ?? "local"}
              {options.length > 0 ? <span className="muted"> ({options.map(([key, value]) => `${key} ${String(value)}`).join(", ")})</span> : null}
            </dd>
          </div>
        )}
        <div>
          <dt>Jobs</dt>
          <dd>
            {formatCount(counts.completed)} of {formatCount(counts.total)} completed
            {counts.skipped ? `, ${formatCount(counts.skipped)} skipped` : ""}
            {running ? `, ${formatCount(running)} running` : ""}
            {counts.failed ? <span className="failed">, {formatCount(counts.failed)} failed</span> : null}
          </dd>
        </div>
        {run.pipeline_id ? (
          <div>
            <dt>Pipeline</dt>
            <dd>
              <Link to={`/pipelines/${run.pipeline_id}`}>open{run.pipeline_revision != null ? ` (revision ${run.pipeline_revision})` : ""}</Link>
              {" · "}
              <Link to={`/pipelines/${run.pipeline_id}/run`}>run again</Link>
            </dd>
          </div>
        ) : null}
        {run.retry_of ? (
          <div>
            <dt>Retry of</dt>
            <dd>
              <Link to={`/runs/${run.retry_of}`} className="mono">
                {run.retry_of.slice(0, 8)}
              </Link>
            </dd>
          </div>
        ) : null}
        {run.exit_code != null ? (
          <div>
            <dt>Exit code</dt>
            <dd className="mono">{run.exit_code}</dd>
          </div>
        ) : null}
      </dl>
      <RunControls run={run} />
    </header>
  );
}

/** A run's job counts summed from its rules. */
function countsOf(nodes: RunStatusView["nodes"], planned: number): RunDetail["counts"] {
  const sum = (pick: (jobs: RunStatusView["nodes"][number]["jobs"]) => number) => nodes.reduce((total, node) => total + pick(node.jobs), 0);
  const total = Math.max(planned, sum((jobs) => jobs.total));
  const completed = sum((jobs) => jobs.completed);
  const failed = sum((jobs) => jobs.failed);
  const running = sum((jobs) => jobs.running);
  const skipped = sum((jobs) => jobs.skipped);
  return { total, completed, failed, running, skipped, pending: Math.max(0, total - completed - failed - running - skipped) };
}

/** Whether the page follows the run live. */
function LiveIndicator({ live, ended }: { live: LiveState; ended: boolean }) {
  const text = ended ? "ended" : live === "live" ? "live" : live === "reconnecting" ? "reconnecting…" : "connecting…";
  return (
    <span className={`live-indicator live-${ended ? "off" : live}`} role="status" aria-label={`Updates: ${text}`}>
      <span className="live-dot" aria-hidden="true" /> {text}
    </span>
  );
}

/** The rule-level graph, each rule coloured by its state (the status view's, which refreshes live). */
function RunDag({ dag, statusNodes, selected, onSelect }: { dag: RunDagStatus | undefined; statusNodes: RunStatusView["nodes"]; selected?: string; onSelect: (rule: string | undefined) => void }) {
  if (!dag) return <p className="muted">Loading the graph…</p>;
  const byRule = new Map(statusNodes.map((node) => [node.rule, node]));
  // The generated type intersects the plain DAG's nodes with these; each node has its state and counts.
  const dagNodes = (dag.nodes ?? []) as { id: string; label: string; rule: string; status: string; jobs: NonNullable<DagNode["jobs"]> }[];
  const nodes: DagNode[] = dagNodes.map((node) => {
    const live = byRule.get(node.rule);
    return { id: node.id, label: node.label, status: live?.status ?? node.status, jobs: live?.jobs ?? node.jobs };
  });
  const idOfRule = new Map(dagNodes.map((node) => [node.rule, node.id]));
  const ruleOfId = new Map(dagNodes.map((node) => [node.id, node.rule]));
  return (
    <div className="run-dag">
      <DagView nodes={nodes} edges={dag.edges.map((edge) => ({ source: edge.from, target: edge.to }))} selected={selected ? idOfRule.get(selected) : undefined} onSelect={(nodeId) => onSelect(nodeId ? ruleOfId.get(nodeId) : undefined)} />
    </div>
  );
}

/** The current time, ticking each second while `ticking` (from the moment it starts). */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const tick = () => setNow(Date.now());
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, 1_000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [ticking]);
  return now;
}
