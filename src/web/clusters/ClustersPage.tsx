/**
 * Remote clusters: the login nodes runs can be sent to over SSH. Everyone sees the clusters they may use and
 * can probe them (what the login node offers: its scheduler, the engine there, free space, latency).
 * Administrators also add and change clusters — the private key goes in once and never comes back — confirm
 * a host key a probe saw after checking it on the login node, and remove clusters. No run starts on a
 * cluster whose host key is not pinned, and a changed key stops runs until it is pinned again.
 */
import { useQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useCurrentUser } from "../api/account.js";
import { clustersQuery, useDeleteCluster, useProbeCluster, useSaveCluster, type Cluster, type ClusterChange, type ClusterProbe } from "../api/clusters.js";
import { useServiceMode } from "../api/health.js";
import { ConfirmButton } from "../components/ConfirmButton.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { QueryState } from "../components/QueryState.js";
import { byteSize } from "../components/formatting.js";
import "./clusters.css";

const SCHEDULERS: { value: NonNullable<ClusterChange["scheduler"]>; label: string }[] = [
  { value: "auto", label: "Find out (auto)" },
  { value: "slurm", label: "SLURM" },
  { value: "pbs", label: "PBS" },
  { value: "sge", label: "Grid Engine (SGE)" },
  { value: "lsf", label: "LSF" },
  { value: "none", label: "None: jobs run on the login node" },
];

/** Whether the caller administers this service (personal mode: its one user does). */
function useIsAdmin(): boolean {
  const { mode } = useServiceMode();
  const signInNeeded = mode === "team" || mode === "hpc";
  const me = useCurrentUser(signInNeeded);
  return mode === "personal" || me.data?.user.role === "admin";
}

export function ClustersPage() {
  const clusters = useQuery(clustersQuery());
  const admin = useIsAdmin();
  const [editing, setEditing] = useState<Cluster | null>(null);
  // A new form (closed, empty) after each save; what was saved is said above the list.
  const [formRound, setFormRound] = useState(0);
  const [saved, setSaved] = useState<Cluster | null>(null);
  const list = clusters.data ?? [];
  // What was saved, as it is now (its host key may have been confirmed since).
  const savedNow = saved ? (list.find((cluster) => cluster.id === saved.id) ?? saved) : null;
  return (
    <section aria-labelledby="clusters-title" className="clusters-page">
      <div className="page-head">
        <div>
          <h1 id="clusters-title">Clusters</h1>
          <p className="muted page-lead">Login nodes this service sends runs to over SSH. A run goes up, its jobs go to the cluster's scheduler, and its results come back.</p>
        </div>
        {clusters.data ? <span className="count">{list.length === 1 ? "1 cluster" : `${list.length} clusters`}</span> : null}
      </div>
      {admin ? (
        <ClusterForm
          key={`${editing?.id ?? "new"}-${formRound}`}
          editing={editing}
          onSaved={(cluster) => {
            setSaved(cluster);
            setEditing(null);
            setFormRound((round) => round + 1);
          }}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      {savedNow ? (
        <p className="muted" role="status">
          Saved {savedNow.name}.{savedNow.host_key.state === "pinned" ? "" : " Probe it to see its host key, then confirm it."}
        </p>
      ) : null}
      <QueryState query={clusters} empty={clusters.data && list.length === 0 ? (admin ? "No clusters yet: add one above." : "No clusters you may use. An administrator adds them.") : null} />
      <ul className="cluster-list">
        {list.map((cluster) => (
          <li key={cluster.id}>
            <ClusterCard cluster={cluster} admin={admin} onEdit={() => setEditing(cluster)} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What to say about a cluster's host key, and whether an administrator has something to confirm. */
function hostKeyWords(cluster: Cluster): string {
  const key = cluster.host_key;
  if (key.state === "pinned") return `Host key pinned: ${key.pinned}`;
  if (key.state === "unconfirmed") return `Host key not confirmed yet. The login node showed ${key.seen}: check it there (ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub) before you confirm it.`;
  if (key.state === "changed") return `Host key changed: pinned ${key.pinned}, the login node now shows ${key.seen}. No run starts there until the key is pinned again — only if the host was really re-installed.`;
  return "No host key yet: probe the cluster to see it, or give its fingerprint.";
}

function ClusterCard({ cluster, admin, onEdit }: { cluster: Cluster; admin: boolean; onEdit: () => void }) {
  const probe = useProbeCluster();
  const confirm = useSaveCluster();
  const remove = useDeleteCluster();
  const titleId = useId();
  const keyState = cluster.host_key.state;
  return (
    <article className={`cluster-card key-${keyState}`} aria-labelledby={titleId}>
      <header>
        <h2 id={titleId}>{cluster.name}</h2>
        <span className="muted mono">{cluster.id}</span>
        {!cluster.enabled ? <span className="badge">disabled</span> : null}
      </header>
      <dl className="cluster-facts">
        <dt>Login node</dt>
        <dd className="mono">
          {cluster.ssh_user ? `${cluster.ssh_user}@` : ""}
          {cluster.ssh_host}:{cluster.ssh_port}
        </dd>
        <dt>Scheduler</dt>
        <dd>{SCHEDULERS.find((entry) => entry.value === cluster.scheduler)?.label ?? cluster.scheduler}</dd>
        <dt>Engine</dt>
        <dd>
          {cluster.engine_placement === "job" ? "runs as a batch job" : "runs on the login node"}
          {cluster.engine_placement === "job" && cluster.engine_job_options && cluster.engine_job_options.length > 0 ? <span className="mono"> ({cluster.engine_job_options.join(" ")})</span> : null}
        </dd>
        <dt>Results</dt>
        <dd>{cluster.results === "pull" ? "brought back when a run ends" : "left on the cluster"}</dd>
        {cluster.remote_dir ? (
          <>
            <dt>Remote folder</dt>
            <dd className="mono">{cluster.remote_dir}</dd>
          </>
        ) : null}
        {cluster.credential ? (
          <>
            <dt>Credential</dt>
            <dd>{cluster.credential === "key" ? "a private key, stored sealed" : cluster.credential === "path" ? "a key file on the service's host" : "none: add one"}</dd>
          </>
        ) : null}
        {cluster.max_runs_per_user !== null ? (
          <>
            <dt>Runs per user</dt>
            <dd>at most {cluster.max_runs_per_user} at once</dd>
          </>
        ) : null}
      </dl>
      <p className={`host-key host-key-${keyState}`} role={keyState === "changed" ? "alert" : undefined}>
        {hostKeyWords(cluster)}
      </p>
      <div className="cluster-actions">
        <button type="button" onClick={() => probe.mutate(cluster.id)} disabled={probe.isPending} aria-label={`Probe ${cluster.name}`}>
          {probe.isPending ? "Probing…" : "Probe"}
        </button>
        {admin && (keyState === "unconfirmed" || keyState === "changed") ? (
          <button type="button" className="primary" onClick={() => confirm.mutate({ id: cluster.id, confirm_host_key: true })} disabled={confirm.isPending} aria-label={`Confirm host key ${cluster.host_key.seen ?? ""}`}>
            Confirm host key
          </button>
        ) : null}
        {admin ? (
          <button type="button" onClick={onEdit} aria-label={`Edit ${cluster.name}`}>
            Edit
          </button>
        ) : null}
        {admin ? (
          <ConfirmButton label="Remove" accessibleName={`Remove ${cluster.name}`} title={`Remove ${cluster.name}?`} confirmLabel="Remove cluster" action={() => remove.mutateAsync(cluster.id)}>
            Runs can no longer be sent to {cluster.name}. Runs already there keep their records; their remote folders stay on the cluster.
          </ConfirmButton>
        ) : null}
      </div>
      {confirm.error ? <ErrorNotice error={confirm.error} /> : null}
      {probe.error ? <ErrorNotice error={probe.error} /> : null}
      {probe.data ? <ProbeAnswer answer={probe.data} /> : null}
    </article>
  );
}

/** What a probe found, or why it failed. */
function ProbeAnswer({ answer }: { answer: ClusterProbe }) {
  if (!answer.ok) {
    return (
      <div className="probe-answer probe-failed" role="status">
        <strong>The probe did not get through.</strong> {answer.error}
      </div>
    );
  }
  return (
    <div className="probe-answer" role="status">
      <strong>Reached {answer.hostname}</strong> in {answer.latency_ms} ms.
      <ul>
        <li>Scheduler: {answer.scheduler === "none" ? "none found (jobs would run on the login node)" : `${answer.scheduler}${answer.version ? ` (${answer.version})` : ""}`}</li>
        <li>Engine: {answer.engine}</li>
        <li>Free space in the remote folder: {answer.free_bytes === null ? "unknown" : byteSize(answer.free_bytes)}</li>
      </ul>
    </div>
  );
}

/** Adding a cluster, or changing the one being edited (fields left empty keep their value; a key is never shown). */
function ClusterForm({ editing, onSaved, onCancel }: { editing: Cluster | null; onSaved: (cluster: Cluster) => void; onCancel: () => void }) {
  const formId = useId();
  const [fields, setFields] = useState({
    id: editing?.id ?? "",
    name: editing?.name ?? "",
    host: editing?.ssh_host ?? "",
    port: String(editing?.ssh_port ?? 22),
    user: editing?.ssh_user ?? "",
    remoteDir: editing?.remote_dir ?? "",
    privateKey: "",
    keyPath: "",
    hostKey: "",
    scheduler: (editing?.scheduler ?? "auto") as NonNullable<ClusterChange["scheduler"]>,
    results: (editing?.results ?? "pull") as NonNullable<ClusterChange["results"]>,
    placement: (editing?.engine_placement ?? "login_node") as NonNullable<ClusterChange["engine_placement"]>,
    jobOptions: (editing?.engine_job_options ?? []).join(" "),
    maxRuns: editing?.max_runs_per_user == null ? "" : String(editing.max_runs_per_user),
    enabled: editing?.enabled ?? true,
  });
  const set = (change: Partial<typeof fields>) => setFields((current) => ({ ...current, ...change }));
  const save = useSaveCluster({ onSuccess: (cluster) => onSaved(cluster) });
  const [open, setOpen] = useState(editing !== null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const change: ClusterChange = {
      id: fields.id.trim(),
      name: fields.name.trim() || undefined,
      ssh_host: fields.host.trim() || undefined,
      ssh_port: Number(fields.port) || 22,
      ssh_user: fields.user.trim() || undefined,
      remote_dir: fields.remoteDir.trim() || undefined,
      scheduler: fields.scheduler,
      results: fields.results,
      engine_placement: fields.placement,
      // One option per word, as the scheduler's own command line takes them.
      engine_job_options: fields.jobOptions.split(/\s+/).filter(Boolean),
      enabled: fields.enabled,
      max_runs_per_user: fields.maxRuns.trim() ? Number(fields.maxRuns) : null,
    };
    if (fields.privateKey.trim()) change.private_key = fields.privateKey;
    else if (fields.keyPath.trim()) change.key_path = fields.keyPath.trim();
    if (fields.hostKey.trim()) change.host_key_sha256 = fields.hostKey.trim();
    save.mutate(change);
  };
  return (
    <details className="cluster-form-box" open={open} onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open)}>
      <summary>{editing ? `Change ${editing.name}` : "Add a cluster"}</summary>
      <form className="cluster-form" onSubmit={submit} aria-describedby={`${formId}-hint`}>
        <p id={`${formId}-hint`} className="muted">
          The service logs in with the private key you give here; it is stored sealed and never shown again. Give the host key's fingerprint if you have it (on the login node: <code>ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub</code>), or probe the cluster after saving and confirm the key it shows.
        </p>
        <div className="form-row">
          <label>
            Id
            <input value={fields.id} onChange={(event) => set({ id: event.target.value })} required readOnly={editing !== null} pattern="[A-Za-z0-9_\-]+" placeholder="hpc-main" />
          </label>
          <label>
            Name
            <input value={fields.name} onChange={(event) => set({ name: event.target.value })} placeholder="Main cluster" />
          </label>
        </div>
        <div className="form-row">
          <label>
            Login node
            <input value={fields.host} onChange={(event) => set({ host: event.target.value })} required={editing === null} placeholder="login.example.org" />
          </label>
          <label className="narrow">
            Port
            <input type="number" min={1} max={65535} value={fields.port} onChange={(event) => set({ port: event.target.value })} />
          </label>
          <label>
            Account
            <input value={fields.user} onChange={(event) => set({ user: event.target.value })} required={editing === null} placeholder="strand" />
          </label>
        </div>
        <label>
          Remote folder
          <input value={fields.remoteDir} onChange={(event) => set({ remoteDir: event.target.value })} required={editing === null} placeholder="/scratch/strand" />
        </label>
        <label>
          Private key
          <textarea value={fields.privateKey} onChange={(event) => set({ privateKey: event.target.value })} rows={4} spellCheck={false} autoComplete="off" placeholder={editing ? "leave empty to keep the stored key" : "-----BEGIN OPENSSH PRIVATE KEY-----"} />
        </label>
        <label>
          Or a key file on the service's host
          <input value={fields.keyPath} onChange={(event) => set({ keyPath: event.target.value })} placeholder="/etc/strand/cluster_ed25519" />
        </label>
        <label>
          Host key fingerprint
          <input value={fields.hostKey} onChange={(event) => set({ hostKey: event.target.value })} placeholder="SHA256:… (optional: or probe, then confirm)" />
        </label>
        <div className="form-row">
          <label>
            Scheduler
            <select value={fields.scheduler} onChange={(event) => set({ scheduler: event.target.value as typeof fields.scheduler })}>
              {SCHEDULERS.map((entry) => (
                <option key={entry.value} value={entry.value}>
                  {entry.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Results
            <select value={fields.results} onChange={(event) => set({ results: event.target.value as typeof fields.results })}>
              <option value="pull">Bring them back</option>
              <option value="remote">Leave them on the cluster</option>
            </select>
          </label>
          <label className="narrow">
            Runs per user
            <input type="number" min={1} value={fields.maxRuns} onChange={(event) => set({ maxRuns: event.target.value })} placeholder="no limit" />
          </label>
        </div>
        <div className="form-row">
          <label>
            Engine
            <select value={fields.placement} onChange={(event) => set({ placement: event.target.value as typeof fields.placement })} aria-describedby={`${formId}-engine-hint`}>
              <option value="login_node">On the login node</option>
              <option value="job" disabled={fields.scheduler === "none"}>
                Submitted as a batch job
              </option>
            </select>
          </label>
          <label>
            Engine job's submit options
            <input value={fields.jobOptions} onChange={(event) => set({ jobOptions: event.target.value })} disabled={fields.placement !== "job"} spellCheck={false} placeholder="--time=2-00:00:00 --mem=4G" className="mono" />
          </label>
        </div>
        <p id={`${formId}-engine-hint`} className="muted">
          Each run has one engine, which submits its jobs and follows them. Where the cluster allows no long-running processes on its login node, submit it as a batch job: give it time for the whole run (and the memory and partition it needs) in the submit options.
        </p>
        <label className="check">
          <input type="checkbox" checked={fields.enabled} onChange={(event) => set({ enabled: event.target.checked })} /> Enabled: users may start runs there
        </label>
        {save.error ? <ErrorNotice error={save.error} /> : null}
        <div className="form-actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : editing ? "Save changes" : "Add cluster"}
          </button>
          {editing ? (
            <button type="button" onClick={onCancel}>
              Cancel
            </button>
          ) : null}
          <Link to="/runs">Runs</Link>
        </div>
      </form>
    </details>
  );
}
