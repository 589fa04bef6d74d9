/**
 * `strand run --remote CLUSTER`: the run goes to a cluster registered with the local service (`strand cluster
 * add`, the store of SERVICE_DATA_DIR or SERVICE_DATABASE_URL) through the same code the service uses for
 * its remote runs (server/runner/remote/remote-engine.ts): the working folder is staged over SFTP (only what
 * changed), the engine starts on the login node detached — submitting jobs to the cluster's scheduler — and
 * its log is printed here as it grows; the results come back into the working folder at the end. Ctrl-C
 * cancels the remote run (a second one kills it); a dropped connection is retried. The options of this
 * command are passed on to the remote engine as given.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import { dirname, isAbsolute, posix, relative, resolve, sep } from "node:path";
import { LOCAL_USER } from "../../server/caller.js";
import { ClusterRegistry } from "../../server/app.js";
import { ServiceError } from "../../server/errors.js";
import { runFiles } from "../../server/runner/engine-command.js";
import { RemoteEngine, RemoteStartError } from "../../server/runner/remote/remote-engine.js";
import { lazySealer, SecretBox } from "../../server/secret-box.js";
import { optionValue, UsageError, type ParsedArgs } from "../args.js";
import { printEnvelope } from "../json-envelope.js";
import { paint, type Output } from "../print.js";
import { ReportedFailure } from "../reported-failure.js";
import { openServiceStore } from "../service-store.js";
import { makeFinding } from "../../engine/findings.js";

/** Options that describe this machine's side of the run, not the engine's: never passed on. */
const LOCAL_ONLY = new Set(["remote", "workdir", "events", "run-id", "report", "executor", "json", "no-color", "quiet", "verbose", "help"]);

/** The engine options of this command line, one word each (`--name=value`), for the remote engine. */
export function forwardedArgs(args: ParsedArgs): string[] {
  const words: string[] = [];
  for (const [name, values] of args.options) if (!LOCAL_ONLY.has(name)) for (const value of values) words.push(`--${name}=${value}`);
  for (const flag of args.flags) if (!LOCAL_ONLY.has(flag)) words.push(`--${flag}`);
  for (const [key, value] of Object.entries(args.assignments)) words.push(`--arg=${key}=${value}`);
  for (const flag of args.configFlags) words.push(flag.value === undefined ? `--${flag.name}` : `--${flag.name}=${flag.value}`);
  return words;
}

/** A folder name for a text: `_` and 32 hex digits of its SHA-256 (as the service names ids that are not plain). */
function folderName(text: string): string {
  return `_${createHash("sha256").update(text, "utf8").digest("hex").slice(0, 32)}`;
}

/** Runs the pipeline at `path` on the cluster; the exit code is the remote engine's (1 when it has none). */
export async function runOnCluster(args: ParsedArgs, output: Output, clusterId: string, path: string): Promise<number> {
  if (optionValue(args, "executor") !== undefined) throw new UsageError("--executor does not go with --remote: the cluster's scheduler runs the jobs", "leave out --executor (strand cluster list shows each cluster's scheduler)");
  const workdir = resolve(optionValue(args, "workdir") ?? dirname(path));
  const pipeline = relative(workdir, path);
  if (pipeline.startsWith("..") || isAbsolute(pipeline)) throw new UsageError(`the workflow ${path} is outside the working folder ${workdir}`, "run from the workflow's folder, or give -d with a folder that holds it: the folder is what goes to the cluster");
  const { store, config, where } = await openServiceStore();
  const sealer = lazySealer(() => SecretBox.fromConfig({ secretKey: config.secretKey, configDir: config.configDir }));
  const json = args.flags.has("json");
  try {
    let cluster;
    try {
      cluster = await new ClusterRegistry(store, sealer).forRun(LOCAL_USER, clusterId, async () => 0);
    } catch (error) {
      if (error instanceof ServiceError) throw new UsageError(`${error.message} (clusters of ${where})`, error.extra.suggestion ?? "strand cluster list shows the registered clusters");
      throw error;
    }
    const runId = optionValue(args, "run-id") ?? randomUUID();
    const files = runFiles(workdir, runId);
    mkdirSync(files.dir, { recursive: true });
    // Per user and per working folder on this machine, under the cluster's folder: a re-run skips what is up to date there.
    const workspace = posix.join(cluster.remote_dir, "users", folderName(userInfo().username), "workstations", folderName(`${hostname()}:${workdir}`));
    const engine = new RemoteEngine({ store, sealer }, { cluster_id: cluster.id, workspace, pid: null, scheduler: null, results: cluster.results, phase: "staging" }, runId, files, {
      log: (line) => output.err(`strand: ${line}`),
      onConnection: (connection) => {
        if (connection.state === "reconnecting" || connection.state === "refused") output.err(paint(output, "yellow", `strand: connection to ${cluster.id} ${connection.state} (${connection.error ?? "no answer"}); next try at ${connection.retry_at}`));
      },
      onEngineLog: (chunk) => process.stderr.write(chunk),
    });
    output.err(`strand: run ${runId} on cluster ${cluster.id} (${cluster.ssh_user}@${cluster.ssh_host}), folder ${workspace}`);
    try {
      await engine.launch({ target: { type: "cluster" } }, (line) => output.err(line), { pipeline: pipeline.split(sep).join("/"), extraArgs: forwardedArgs(args) });
    } catch (error) {
      engine.close();
      throw new ReportedFailure(makeFinding("RUN_FAILED", "error", error instanceof RemoteStartError ? error.message : `the run could not be started on ${cluster.id}: ${(error as Error).message}`));
    }
    let interrupted = 0;
    const onInterrupt = () => {
      interrupted++;
      output.err(interrupted === 1 ? "strand: cancelling the run on the cluster (Ctrl-C again to kill it)" : "strand: killing the run on the cluster");
      engine.signal(interrupted === 1 ? "TERM" : "KILL");
    };
    const handlers: [NodeJS.Signals, () => void][] = [
      ["SIGINT", onInterrupt],
      ["SIGTERM", onInterrupt],
      ["SIGUSR1", () => engine.signal("USR1")],
      ["SIGUSR2", () => engine.signal("USR2")],
    ];
    for (const [signal, handler] of handlers) process.on(signal, handler);
    let code: number | null;
    try {
      code = await new Promise<number | null>((done) => engine.follow(done));
      const summary = await engine.collect();
      if (!summary) output.err(`strand: the results could not be brought back; they are in ${cluster.id}:${workspace}`);
      else if (cluster.results === "remote") output.err(`strand: the results stay on the cluster, in ${cluster.id}:${workspace}`);
      else output.err(`strand: brought back ${summary.copied} file${summary.copied === 1 ? "" : "s"} from ${cluster.id}, ${summary.unchanged} unchanged`);
    } finally {
      for (const [signal, handler] of handlers) process.off(signal, handler);
      engine.close();
    }
    if (json) printEnvelope(output, "run", { ok: code === 0, findings: [], data: { run_id: runId, cluster: cluster.id, remote_workspace: workspace, exit_code: code, events: files.events } });
    return code ?? 1;
  } finally {
    await store.close();
  }
}
