/**
 * The cluster registry, free of HTTP: administrators save (upsert by id, as the predecessor did) and delete
 * clusters; everyone lists the clusters they may use. A credential goes in — sealed with the service's secret
 * box, or as a path on the service's host — and never comes out: views say only which kind is stored, and
 * only to administrators, who also alone see the login account, the remote folder and the access lists.
 */
import type { z } from "@hono/zod-openapi";
import type { Caller } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import type { KeySealer } from "../../secret-box.js";
import type { ClusterInput, ClusterRecord, ClusterStore } from "../../store/clusters/contract.js";
import { probeFacts, probeScript } from "../../runner/remote/login-node.js";
import { SaveClusterBody, type ClusterProbeSchema, type ClusterSchema } from "./schemas.js";
import { clusterLogin } from "../../outbound/cluster-login.js";
import { connectSsh, runRemote, SshRefusal } from "../../outbound/ssh.js";

/** A cluster as the API shows it to one caller. */
export type ClusterView = z.infer<typeof ClusterSchema>;

/** What a probe answers. */
export type ClusterProbe = z.infer<typeof ClusterProbeSchema>;

/** What an administrator sends to save a cluster. */
export type ClusterChange = z.infer<typeof SaveClusterBody>;

/** A change read from untrusted JSON (the command line's options), checked as the API checks it; a bad field is 400 naming it. */
export function clusterChange(body: unknown): ClusterChange {
  const parsed = SaveClusterBody.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new ServiceError("BAD_REQUEST", `${issue.path.join(".") || "cluster"}: ${issue.message}`);
}

/** The state of a cluster's host key, from what is pinned and what a probe last saw. */
export function hostKeyState(record: Pick<ClusterRecord, "host_key_sha256" | "seen_host_key_sha256">): ClusterView["host_key"] {
  const pinned = record.host_key_sha256;
  const seen = record.seen_host_key_sha256 !== pinned ? record.seen_host_key_sha256 : null;
  const state = pinned ? (seen ? "changed" : "pinned") : seen ? "unconfirmed" : "unknown";
  return { pinned, seen, state };
}

/** Whether `caller` may start runs on (and so see and probe) a cluster. */
export function mayUseCluster(caller: Caller, record: ClusterRecord): boolean {
  if (caller.admin) return true;
  if (!record.enabled || caller.role === "anonymous") return false;
  const { roles, users } = record.access;
  if (roles === null && users === null) return true;
  return (roles?.includes(caller.role) ?? false) || (users?.includes(caller.id) ?? false);
}

/** The registry's operations. */
export class ClusterRegistry {
  constructor(
    private readonly store: ClusterStore,
    private readonly sealer: KeySealer,
  ) {}

  /** The clusters the caller may use (every one for administrators), by name as people read it (case and accents aside). */
  async list(caller: Caller): Promise<ClusterView[]> {
    const usable = (await this.store.listClusters()).filter((record) => mayUseCluster(caller, record));
    usable.sort((a, b) => BY_NAME.compare(a.name, b.name) || (a.id < b.id ? -1 : 1));
    return usable.map((record) => viewOf(record, caller));
  }

  /** One cluster the caller may use; others (and unknown ids) are 404 alike. */
  async get(caller: Caller, id: string): Promise<ClusterRecord> {
    const record = await this.store.getCluster(id);
    if (!record || !mayUseCluster(caller, record)) throw notFound(id);
    return record;
  }

  /**
   * The cluster a new run of `caller` goes to, checked before anything of the run is written: one the
   * caller may use (others are 404 alike), enabled, with a pinned host key, and within its per-user limit
   * (`activeRuns`: the caller's queued, running and paused runs there now).
   */
  async forRun(caller: Caller, id: string, activeRuns: () => Promise<number>): Promise<ClusterRecord> {
    const record = await this.get(caller, id);
    if (!record.enabled) throw new ServiceError("CONFLICT", `cluster '${id}' is disabled`, { suggestion: "ask an administrator to enable it, or run on another target" });
    if (!record.host_key_sha256) {
      throw new ServiceError("CONFLICT", `cluster '${id}' has no pinned host key yet, so nothing runs there`, {
        suggestion: caller.admin ? `probe it (POST /api/clusters/${id}/probe) and confirm the key it shows: POST /api/clusters {"id": "${id}", "confirm_host_key": true}` : "ask an administrator to probe the cluster and confirm its host key",
      });
    }
    if (record.seen_host_key_sha256 && record.seen_host_key_sha256 !== record.host_key_sha256) {
      throw new ServiceError("CONFLICT", `cluster '${id}' showed a different host key (${record.seen_host_key_sha256}) from the pinned one (${record.host_key_sha256}); nothing runs there until an administrator re-pins it`, {
        suggestion: "an administrator checks the login node's key (ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub) and re-pins it if the host was really re-installed",
      });
    }
    if (record.max_runs_per_user !== null && (await activeRuns()) >= record.max_runs_per_user) {
      throw new ServiceError("USER_LIMIT", `you have ${record.max_runs_per_user} run${record.max_runs_per_user === 1 ? "" : "s"} on cluster '${id}' already, its limit per user`, { suggestion: "wait for one to end, or cancel one" });
    }
    return record;
  }

  /** Creates or changes a cluster (administrators; the access table checks the role). */
  async save(caller: Caller, change: ClusterChange): Promise<ClusterView> {
    const existing = await this.store.getCluster(change.id);
    const input = existing ? this.changed(existing, change) : this.created(change);
    if (input.engine_placement === "job" && input.scheduler === "none") {
      throw new ServiceError("BAD_REQUEST", `cluster '${input.id}': engine_placement job needs a scheduler, and its scheduler is none`, { suggestion: 'set scheduler (or "auto"), or engine_placement "login_node"' });
    }
    input.updated_by = caller.id || null;
    return viewOf(await this.store.putCluster(input), caller);
  }

  /**
   * Connects to a cluster the caller may use and reports what its login node offers. An unpinned or changed
   * host key ends the connection before authentication: the key seen is recorded for an administrator to
   * confirm, and the answer says so (ok false), as it does for an unreachable host or a refused key.
   */
  async probe(caller: Caller, id: string): Promise<ClusterProbe> {
    let record = await this.get(caller, id);
    const started = performance.now();
    const answer = (fields: Partial<ClusterProbe>): ClusterProbe => ({
      ok: false,
      cluster: record.id,
      hostname: null,
      scheduler: null,
      version: null,
      node_version: null,
      strand_version: null,
      engine: null,
      free_bytes: null,
      latency_ms: null,
      duration_ms: Math.round(performance.now() - started),
      host_key: hostKeyState(record),
      error: null,
      ...fields,
    });
    let login;
    try {
      login = await clusterLogin(record, this.sealer);
    } catch (error) {
      return answer({ error: caller.admin ? (error as Error).message : "the cluster's credential cannot be used; ask an administrator" });
    }
    let client;
    try {
      client = await connectSsh(login);
    } catch (error) {
      if (!(error instanceof SshRefusal)) throw error;
      if (error.seen && error.seen !== record.seen_host_key_sha256) record = (await this.store.recordSeenHostKey(record.id, error.seen)) ?? record;
      const hint =
        error.reason === "unpinned"
          ? `; an administrator checks it against the login node (ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub) and confirms it: {"id": "${record.id}", "confirm_host_key": true}`
          : error.reason === "changed"
            ? "; nothing runs there until an administrator re-pins the key (if the host was really re-installed)"
            : "";
      return answer({ error: `${error.message}${hint}` });
    }
    try {
      const ping = performance.now();
      await runRemote(client, "true", { timeoutMs: 15_000 });
      const latency = Math.round(performance.now() - ping);
      const result = await runRemote(client, probeScript(record.remote_dir), { timeoutMs: 30_000, maxBytes: 64 * 1024 });
      const facts = probeFacts(result.stdout);
      const engine = facts.strand_version
        ? `strand ${facts.strand_version}`
        : facts.node_version
          ? `no strand on the PATH; Node.js ${facts.node_version} is there, so the service can stage its own engine`
          : "neither strand nor Node.js is on the PATH: install Node.js 20.19 or newer on the login node (the service then stages its own engine)";
      return answer({ ok: result.code === 0, ...facts, engine, latency_ms: latency, error: result.code === 0 ? null : `the probe script ended with ${result.code}: ${result.stderr.trim().slice(0, 500)}` });
    } catch (error) {
      return answer({ error: `the probe failed on the login node: ${(error as Error).message}` });
    } finally {
      client.end();
    }
  }

  /** Adds a cluster declared in the configuration file unless its id is taken (the registry wins); true when added. */
  async declare(change: ClusterChange): Promise<boolean> {
    return this.store.addClusterIfAbsent(this.created(change));
  }

  /** Deletes a cluster (administrators). */
  async remove(id: string): Promise<{ deleted: string }> {
    if (!(await this.store.deleteCluster(id))) throw notFound(id);
    return { deleted: id };
  }

  private created(change: ClusterChange): ClusterInput {
    const missing = (["ssh_host", "ssh_user", "remote_dir"] as const).filter((field) => change[field] === undefined);
    if (missing.length > 0) {
      throw new ServiceError("MISSING_FIELD", `a new cluster needs ${missing.join(", ")}`, { suggestion: 'e.g. {"id": "hpc", "ssh_host": "login.example.org", "ssh_user": "strand", "remote_dir": "/scratch/strand", "private_key": "-----BEGIN OPENSSH PRIVATE KEY-----…"}' });
    }
    if (change.confirm_host_key) throw new ServiceError("BAD_REQUEST", "confirm_host_key needs a host key a probe has seen; a new cluster has none", { suggestion: "probe the cluster first, or give host_key_sha256" });
    return {
      id: change.id,
      name: change.name ?? change.id,
      ssh_host: change.ssh_host!,
      ssh_port: change.ssh_port ?? 22,
      ssh_user: change.ssh_user!,
      ...this.credential(change, { sealed_private_key: null, key_path: null }),
      host_key_sha256: change.host_key_sha256 ?? null,
      seen_host_key_sha256: null,
      scheduler: change.scheduler ?? "auto",
      remote_dir: change.remote_dir!,
      results: change.results ?? "pull",
      engine_placement: change.engine_placement ?? "login_node",
      engine_job_options: change.engine_job_options ?? [],
      max_runs_per_user: change.max_runs_per_user ?? null,
      access: { roles: change.access?.roles ?? null, users: change.access?.users ?? null },
      enabled: change.enabled ?? true,
      updated_by: null,
    };
  }

  /** The cluster with the fields the change names replaced; absent fields keep their values. */
  private changed(existing: ClusterRecord, change: ClusterChange): ClusterInput {
    let pinned = change.host_key_sha256 === undefined ? existing.host_key_sha256 : change.host_key_sha256;
    if (change.confirm_host_key) {
      if (!existing.seen_host_key_sha256) throw new ServiceError("BAD_REQUEST", `cluster '${existing.id}' has no host key to confirm: no probe has seen one`, { suggestion: `probe it first: POST /api/clusters/${existing.id}/probe` });
      pinned = existing.seen_host_key_sha256;
    }
    // A host, port or credential change makes the pinned key a claim about another machine: keep it only when restated.
    const moved = (change.ssh_host !== undefined && change.ssh_host !== existing.ssh_host) || (change.ssh_port !== undefined && change.ssh_port !== existing.ssh_port);
    if (moved && change.host_key_sha256 === undefined && !change.confirm_host_key) pinned = null;
    return {
      id: existing.id,
      name: change.name ?? existing.name,
      ssh_host: change.ssh_host ?? existing.ssh_host,
      ssh_port: change.ssh_port ?? existing.ssh_port,
      ssh_user: change.ssh_user ?? existing.ssh_user,
      ...this.credential(change, existing),
      host_key_sha256: pinned,
      seen_host_key_sha256: moved ? null : existing.seen_host_key_sha256,
      scheduler: change.scheduler ?? existing.scheduler,
      remote_dir: change.remote_dir ?? existing.remote_dir,
      results: change.results ?? existing.results,
      engine_placement: change.engine_placement ?? existing.engine_placement,
      engine_job_options: change.engine_job_options ?? existing.engine_job_options,
      max_runs_per_user: change.max_runs_per_user === undefined ? existing.max_runs_per_user : change.max_runs_per_user,
      access: {
        roles: change.access?.roles === undefined ? existing.access.roles : change.access.roles,
        users: change.access?.users === undefined ? existing.access.users : change.access.users,
      },
      enabled: change.enabled ?? existing.enabled,
      updated_by: existing.updated_by,
    };
  }

  /** The stored credential after a change: a new key (sealed) or a new path replaces whichever was there. */
  private credential(change: ClusterChange, current: Pick<ClusterRecord, "sealed_private_key" | "key_path">): Pick<ClusterRecord, "sealed_private_key" | "key_path"> {
    if (change.private_key !== undefined && change.key_path !== undefined) {
      throw new ServiceError("BAD_REQUEST", "give private_key or key_path, not both", { suggestion: "a stored key (private_key) or a file on the service's host (key_path)" });
    }
    if (change.private_key !== undefined) return { sealed_private_key: this.sealer.seal(change.private_key), key_path: null };
    if (change.key_path !== undefined) return { sealed_private_key: null, key_path: change.key_path };
    return { sealed_private_key: current.sealed_private_key, key_path: current.key_path };
  }
}

const BY_NAME = new Intl.Collator("en", { sensitivity: "base", numeric: true });

function notFound(id: string): ServiceError {
  return new ServiceError("NOT_FOUND", `no cluster '${id}' you may use`, { suggestion: "GET /api/clusters lists the clusters you may use" });
}

/** A cluster as `caller` may see it: never a key or a key's path; the account, folder and access lists to administrators only. */
function viewOf(record: ClusterRecord, caller: Caller): ClusterView {
  const shared = {
    id: record.id,
    name: record.name,
    ssh_host: record.ssh_host,
    ssh_port: record.ssh_port,
    host_key: hostKeyState(record),
    scheduler: record.scheduler,
    results: record.results,
    engine_placement: record.engine_placement,
    max_runs_per_user: record.max_runs_per_user,
    enabled: record.enabled,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
  if (!caller.admin) return shared;
  const credential = record.sealed_private_key ? "key" : record.key_path ? "path" : "none";
  return { ...shared, ssh_user: record.ssh_user, credential, remote_dir: record.remote_dir, engine_job_options: record.engine_job_options, access: record.access };
}
