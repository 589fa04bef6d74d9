/**
 * Start a run of a saved pipeline: where it runs (this machine by default, or a scheduler or container with
 * their options, or a remote cluster reached over SSH), how many jobs at once, keep going after a failure, which samples, config overrides typed
 * as TOML values, and a dry run that only plans. The service's refusals are shown as it explains them: a
 * pipeline with errors lists its findings with a link back to the editor, a run already working in the
 * pipeline's workspace is named with a link, a per-user limit says which.
 */
import { useQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import type { components } from "../../client/service-client.js";
import { ApiError } from "../api/errors.js";
import { clustersQuery } from "../api/clusters.js";
import { parsedPipelineQuery, pipelineQuery } from "../api/pipelines.js";
import { useStartRun } from "../api/runs.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { QueryState } from "../components/QueryState.js";
import { tomlKind, tomlValue } from "./format.js";
import "./runs.css";

type RunTarget = components["schemas"]["RunTarget"];
type Finding = components["schemas"]["Finding"];

const TARGETS: { type: RunTarget["type"]; label: string }[] = [
  { type: "local", label: "This machine" },
  { type: "slurm", label: "SLURM" },
  { type: "pbs", label: "PBS" },
  { type: "sge", label: "SGE" },
  { type: "lsf", label: "LSF" },
  { type: "container", label: "Container" },
  { type: "cloud_batch", label: "Cloud batch" },
];
const SCHEDULERS = new Set(["slurm", "pbs", "sge", "lsf"]);

/** The picker's value for a remote cluster: `cluster:<id>` (target types never hold a colon). */
const CLUSTER_PREFIX = "cluster:";

interface OverrideRow {
  key: string;
  value: string;
}

export function StartRunPage() {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const formId = useId();
  const pipeline = useQuery(pipelineQuery(id));
  const parsed = useQuery(parsedPipelineQuery(pipeline.data));

  const [targetType, setTargetType] = useState<string>("local");
  const clusters = useQuery(clustersQuery());
  const usableClusters = (clusters.data ?? []).filter((cluster) => cluster.enabled);
  const cluster = targetType.startsWith(CLUSTER_PREFIX) ? usableClusters.find((entry) => entry.id === targetType.slice(CLUSTER_PREFIX.length)) : undefined;
  // A cluster's own scheduler takes the scheduler options (with auto, the service finds it there).
  const schedulerOptions = cluster ? cluster.scheduler !== "none" : SCHEDULERS.has(targetType);
  const schedulerName = cluster ? (cluster.scheduler === "auto" ? "the cluster's scheduler" : cluster.scheduler.toUpperCase()) : targetType.toUpperCase();
  const [queue, setQueue] = useState("");
  const [account, setAccount] = useState("");
  const [walltime, setWalltime] = useState("");
  const [image, setImage] = useState("");
  const [runtime, setRuntime] = useState<NonNullable<RunTarget["runtime"]>>("docker");
  const [jobs, setJobs] = useState(1);
  const [keepGoing, setKeepGoing] = useState(false);
  const [samples, setSamples] = useState("");
  const [overrides, setOverrides] = useState<OverrideRow[]>([]);
  const [dryRun, setDryRun] = useState(false);
  const [fresh, setFresh] = useState(false);

  const start = useStartRun({ onSuccess: (run) => void navigate(`/runs/${run.id}`) });

  const configKeys = Object.keys(parsed.data?.config ?? {});
  const sampleNames = (parsed.data?.sample_groups ?? []).flatMap((group) => group.samples);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const type = (cluster ? (SCHEDULERS.has(cluster.scheduler) ? cluster.scheduler : "local") : targetType) as RunTarget["type"];
    const target: RunTarget = { type };
    if (schedulerOptions) {
      if (queue.trim()) target[type === "slurm" || (cluster && cluster.scheduler === "auto") ? "partition" : "queue"] = queue.trim();
      if (account.trim()) target.account = account.trim();
      if (walltime.trim()) target.walltime = walltime.trim();
    }
    if (targetType === "container") {
      if (image.trim()) target.image = image.trim();
      target.runtime = runtime;
    }
    const config: Record<string, string | number | boolean> = {};
    for (const row of overrides) if (row.key.trim()) config[row.key.trim()] = tomlValue(row.value);
    const sampleList = samples
      .split(/[\s,]+/)
      .map((name) => name.trim())
      .filter(Boolean);
    start.mutate({
      pipeline_id: id,
      target,
      ...(cluster ? { cluster_id: cluster.id } : {}),
      jobs,
      keep_going: keepGoing,
      dry_run: dryRun,
      ...(fresh ? { fresh: true } : {}),
      ...(sampleList.length > 0 ? { samples: sampleList } : {}),
      ...(Object.keys(config).length > 0 ? { config } : {}),
    });
  };

  const setOverride = (index: number, change: Partial<OverrideRow>) => setOverrides((rows) => rows.map((row, at) => (at === index ? { ...row, ...change } : row)));

  if (!pipeline.data) {
    return (
      <section aria-labelledby="start-title">
        <h1 id="start-title">Start a run</h1>
        <QueryState query={pipeline} empty={null} />
      </section>
    );
  }

  return (
    <section aria-labelledby="start-title" className="start-run">
      <div className="page-head">
        <div>
          <h1 id="start-title">Start a run</h1>
          <p className="muted">
            of <Link to={`/pipelines/${id}`}>{pipeline.data.name}</Link>
            {pipeline.data.rules_count !== undefined ? ` · ${pipeline.data.rules_count} rules` : ""}
          </p>
        </div>
      </div>
      <StartRefusal error={start.error} pipelineId={id} />
      <form className="run-form" onSubmit={submit} aria-describedby={`${formId}-hint`}>
        <p id={`${formId}-hint`} className="muted">
          The run uses the pipeline as it is saved now. Runs of one pipeline share a workspace and skip jobs whose outputs are up to date.
        </p>
        <fieldset>
          <legend>Where it runs</legend>
          <label>
            Target
            <select value={targetType} onChange={(event) => setTargetType(event.target.value)}>
              <optgroup label="The service's machine">
                {TARGETS.map((target) => (
                  <option key={target.type} value={target.type}>
                    {target.label}
                  </option>
                ))}
              </optgroup>
              {usableClusters.length > 0 ? (
                <optgroup label="Remote clusters (over SSH)">
                  {usableClusters.map((entry) => (
                    <option key={entry.id} value={`${CLUSTER_PREFIX}${entry.id}`} disabled={entry.host_key.state !== "pinned"}>
                      Cluster: {entry.name}
                      {entry.host_key.state !== "pinned" ? " (host key not confirmed)" : ""}
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </select>
          </label>
          {cluster ? (
            <p className="muted" role="note">
              The pipeline's workspace goes to {cluster.name} ({cluster.ssh_host}) over SSH; the engine there sends the jobs to{" "}
              {cluster.scheduler === "none" ? "its login node" : schedulerName}, this page follows it live, and the results {cluster.results === "pull" ? "come back here" : "stay on the cluster"} when it ends.
            </p>
          ) : null}
          {schedulerOptions ? (
            <div className="form-row">
              <label>
                {targetType === "slurm" || cluster?.scheduler === "slurm" ? "Partition" : "Queue"}
                <input value={queue} onChange={(event) => setQueue(event.target.value)} placeholder="default" />
              </label>
              <label>
                Account
                <input value={account} onChange={(event) => setAccount(event.target.value)} placeholder="none" />
              </label>
              <label>
                Time limit per job
                <input value={walltime} onChange={(event) => setWalltime(event.target.value)} placeholder="01:00:00" />
              </label>
            </div>
          ) : null}
          {targetType === "container" ? (
            <div className="form-row">
              <label>
                Image
                <input value={image} onChange={(event) => setImage(event.target.value)} placeholder="ubuntu:24.04" />
              </label>
              <label>
                Runtime
                <select value={runtime} onChange={(event) => setRuntime(event.target.value as typeof runtime)}>
                  {(["docker", "podman", "apptainer", "singularity"] as const).map((name) => (
                    <option key={name}>{name}</option>
                  ))}
                </select>
              </label>
            </div>
          ) : null}
        </fieldset>
        <fieldset>
          <legend>How</legend>
          <div className="form-row">
            <label>
              Jobs at once
              <input type="number" min={1} max={1024} value={jobs} onChange={(event) => setJobs(Math.max(1, Number(event.target.value) || 1))} />
            </label>
            <label>
              Samples
              <input value={samples} onChange={(event) => setSamples(event.target.value)} placeholder={sampleNames.length > 0 ? `all ${sampleNames.length} (e.g. ${sampleNames.slice(0, 2).join(", ")} or first:2)` : "all"} aria-describedby={`${formId}-samples`} />
              <span id={`${formId}-samples`} className="muted">
                Names separated by commas, or first:N; empty runs them all.
              </span>
            </label>
          </div>
          <label className="check">
            <input type="checkbox" checked={keepGoing} onChange={(event) => setKeepGoing(event.target.checked)} /> Keep going: run independent jobs after a failure
          </label>
          <label className="check">
            <input type="checkbox" checked={fresh} onChange={(event) => setFresh(event.target.checked)} /> Fresh workspace: run everything again in an empty folder
          </label>
          <label className="check">
            <input type="checkbox" checked={dryRun} onChange={(event) => setDryRun(event.target.checked)} /> Dry run: only plan, showing which jobs would run and why
          </label>
        </fieldset>
        <fieldset>
          <legend>Config overrides</legend>
          {overrides.length === 0 ? <p className="muted">The pipeline's [config] values are used{configKeys.length > 0 ? ` (${configKeys.join(", ")})` : ""}. Add an override to change one for this run.</p> : null}
          <datalist id={`${formId}-keys`}>
            {configKeys.map((key) => (
              <option key={key} value={key} />
            ))}
          </datalist>
          {overrides.map((row, index) => (
            <div className="form-row override" key={index}>
              <label>
                Key {index + 1}
                <input value={row.key} list={`${formId}-keys`} onChange={(event) => setOverride(index, { key: event.target.value })} placeholder="threads" />
              </label>
              <label>
                Value {index + 1}
                <input value={row.value} onChange={(event) => setOverride(index, { value: event.target.value })} placeholder='4, true, "text"' />
              </label>
              <span className="muted override-kind">{row.value.trim() ? tomlKind(row.value) : ""}</span>
              <button type="button" onClick={() => setOverrides((rows) => rows.filter((_, at) => at !== index))} aria-label={`Remove override ${index + 1}`}>
                Remove
              </button>
            </div>
          ))}
          <button type="button" onClick={() => setOverrides((rows) => [...rows, { key: "", value: "" }])}>
            Add override
          </button>
        </fieldset>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={start.isPending}>
            {start.isPending ? "Starting…" : dryRun ? "Start dry run" : "Start run"}
          </button>
          <Link to={`/pipelines/${id}`}>Back to the editor</Link>
        </div>
      </form>
    </section>
  );
}

/** The service's refusal of a new run, with what to do about it. */
function StartRefusal({ error, pipelineId }: { error: Error | null; pipelineId: string }) {
  if (!error) return null;
  const body = (error instanceof ApiError ? error.body : {}) as { code?: string; findings?: Finding[]; running_run?: string };
  if (body.code === "VALIDATE_ERROR") {
    const findings = body.findings ?? [];
    return (
      <div className="error-notice" role="alert">
        <strong>The pipeline has {findings.filter((finding) => finding.severity === "error").length || "some"} error(s); fix them before running.</strong>
        <ul className="findings">
          {findings.map((finding, index) => (
            <li key={index}>
              <span className={`severity severity-${finding.severity}`}>{finding.severity}</span> {finding.line != null ? <span className="mono">line {finding.line}{finding.column != null ? `:${finding.column}` : ""} </span> : null}
              <span className="mono">{finding.code}</span> {finding.message}
              {finding.suggestion ? <div className="muted">{finding.suggestion}</div> : null}
            </li>
          ))}
        </ul>
        <Link to={`/pipelines/${pipelineId}`}>Open the pipeline in the editor</Link>
      </div>
    );
  }
  if (error instanceof ApiError && error.status === 409 && body.running_run) {
    return (
      <div className="error-notice" role="alert">
        <strong>{error.message}</strong>
        <div>
          The run in the way: <Link to={`/runs/${body.running_run}`}>{body.running_run}</Link>. Wait for it, cancel it, or tick “Fresh workspace”.
        </div>
      </div>
    );
  }
  return <ErrorNotice error={error} />;
}
