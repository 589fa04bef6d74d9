/**
 * `strand cluster add|list|probe|confirm-key|remove`: the registry of remote clusters of a local service, in
 * the store the service uses (SERVICE_DATABASE_URL, else SERVICE_DATA_DIR: give the same values the service
 * has), through the same code as the API, acting as an administrator. A key given with `--key FILE` is read
 * here and stored sealed with the service's secret key; `--key-path` names a file the service reads itself.
 */
import { readFile } from "node:fs/promises";
import { makeFinding } from "../../engine/findings.js";
import { LOCAL_USER } from "../../server/caller.js";
import { ClusterRegistry, clusterChange, type ClusterProbe, type ClusterView } from "../../server/app.js";
import { ServiceError } from "../../server/errors.js";
import { lazySealer, SecretBox } from "../../server/secret-box.js";
import { optionValue, UsageError, type OptionSpec, type ParsedArgs } from "../args.js";
import { printEnvelope } from "../json-envelope.js";
import type { Output } from "../print.js";
import { ReportedFailure } from "../reported-failure.js";
import { openServiceStore } from "../service-store.js";

/** The registry's subcommands. */
export const REGISTRY_SUBCOMMANDS = ["add", "list", "probe", "confirm-key", "remove"] as const;

/** The options the registry's subcommands take. */
export const REGISTRY_OPTIONS: OptionSpec[] = [
  { name: "host", value: true, placeholder: "HOST", description: "add: the login node's host name or address" },
  { name: "port", value: true, placeholder: "PORT", description: "add: its SSH port (default 22)" },
  { name: "user", value: true, placeholder: "NAME", description: "add: the account on the login node" },
  { name: "remote-dir", value: true, placeholder: "DIR", description: "add: the absolute folder runs go under" },
  { name: "key", value: true, placeholder: "FILE", description: "add: a private key file, stored sealed in the service's store" },
  { name: "key-path", value: true, placeholder: "PATH", description: "add: a private key file on the service's host, read when connecting" },
  { name: "host-key", value: true, placeholder: "SHA256:…", description: "add: the host key's fingerprint to pin (ssh-keygen -lf)" },
  { name: "scheduler", value: true, placeholder: "auto|slurm|pbs|sge|lsf|none", description: "add: the cluster's scheduler (default auto)" },
  { name: "name", value: true, placeholder: "TEXT", description: "add: a name to show (default: the id)" },
  { name: "engine-placement", value: true, placeholder: "login_node|job", description: "add: run each run's engine on the login node (default) or as a scheduler job" },
  {
    name: "engine-job-option",
    value: true,
    repeat: true,
    placeholder: "OPTION",
    description: "add: one submit option for the engine's job, one word each, repeated for more (--engine-job-option=--time=2-00:00:00)",
  },
];

/** Whether a `strand cluster` subcommand belongs to the registry. */
export function isRegistrySubcommand(name: string | undefined): boolean {
  return (REGISTRY_SUBCOMMANDS as readonly string[]).includes(name ?? "");
}

/** Runs one registry subcommand; the exit code is 0, or 1 when a probe failed. */
export async function runRegistry(args: ParsedArgs, output: Output): Promise<number> {
  const [action, id] = args.positionals as [(typeof REGISTRY_SUBCOMMANDS)[number], string | undefined];
  if (action !== "list" && !id) throw new UsageError(`strand cluster ${action} needs a cluster id`, `e.g. strand cluster ${action} hpc`);
  const { store, config, where } = await openServiceStore();
  const registry = new ClusterRegistry(store, lazySealer(() => SecretBox.fromConfig({ secretKey: config.secretKey, configDir: config.configDir })));
  const json = args.flags.has("json");
  try {
    if (action === "list") {
      const clusters = await registry.list(LOCAL_USER);
      if (json) printEnvelope(output, "cluster list", { ok: true, data: { clusters, store: where }, findings: [] });
      else {
        output.err(`clusters in ${where}:`);
        for (const cluster of clusters) output.out(describe(cluster));
        if (clusters.length === 0) output.err("  (none yet: strand cluster add ID --host HOST --user NAME --remote-dir DIR --key FILE)");
      }
      return 0;
    }
    if (action === "remove") {
      await registry.remove(id!);
      if (json) printEnvelope(output, "cluster remove", { ok: true, data: { deleted: id, store: where }, findings: [] });
      else output.out(`removed cluster '${id}' from ${where}`);
      return 0;
    }
    if (action === "probe") {
      const probe = await registry.probe(LOCAL_USER, id!);
      if (json) printEnvelope(output, "cluster probe", { ok: probe.ok, data: probe, findings: [] });
      else printProbe(output, probe);
      return probe.ok ? 0 : 1;
    }
    const body = action === "confirm-key" ? { id: id!, confirm_host_key: true } : await addBody(id!, args);
    let change;
    try {
      change = clusterChange(body);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const saved = await registry.save(LOCAL_USER, change);
    if (json) printEnvelope(output, `cluster ${action}`, { ok: true, data: { cluster: saved, store: where }, findings: [] });
    else output.out(`${action === "add" ? "saved" : "pinned the host key of"} ${describe(saved)} in ${where}`);
    return 0;
  } catch (error) {
    if (error instanceof ServiceError) throw new ReportedFailure(makeFinding(error.code, "error", error.message, { suggestion: error.extra.suggestion }));
    throw error;
  } finally {
    await store.close();
  }
}

/** The body of `add`, from the options that were given (the others keep their values on an existing cluster). */
async function addBody(id: string, args: ParsedArgs): Promise<Record<string, unknown>> {
  const keyFile = optionValue(args, "key");
  const port = optionValue(args, "port");
  const body: Record<string, unknown> = {
    id,
    name: optionValue(args, "name"),
    ssh_host: optionValue(args, "host"),
    ssh_port: port === undefined ? undefined : Number(port),
    ssh_user: optionValue(args, "user"),
    remote_dir: optionValue(args, "remote-dir"),
    key_path: optionValue(args, "key-path"),
    host_key_sha256: optionValue(args, "host-key"),
    scheduler: optionValue(args, "scheduler"),
    engine_placement: optionValue(args, "engine-placement"),
    // Each given value is one word as written (submit options hold commas: -l nodes=1,walltime=…).
    engine_job_options: args.options.get("engine-job-option"),
  };
  if (keyFile !== undefined) {
    body.private_key = await readFile(keyFile, "utf8").catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`--key ${keyFile}: cannot read it (${error.code ?? error.message})`);
    });
  }
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

function describe(cluster: ClusterView): string {
  const where = `${cluster.ssh_user ? `${cluster.ssh_user}@` : ""}${cluster.ssh_host}:${cluster.ssh_port}`;
  return `${cluster.id.padEnd(16)} ${where.padEnd(32)} ${cluster.scheduler.padEnd(6)}${cluster.engine_placement === "job" ? " engine as a job," : ""} host key ${cluster.host_key.state}${cluster.host_key.pinned ? ` ${cluster.host_key.pinned}` : ""}${cluster.enabled ? "" : "  (disabled)"}`;
}

function printProbe(output: Output, probe: ClusterProbe): void {
  if (!probe.ok) {
    output.err(`✗ cluster '${probe.cluster}': ${probe.error ?? "the probe failed"}`);
    if (probe.host_key.seen) output.err(`  host key seen: ${probe.host_key.seen} (strand cluster confirm-key ${probe.cluster} pins it)`);
    return;
  }
  output.out(`✓ cluster '${probe.cluster}': ${probe.hostname} — ${probe.scheduler}${probe.version ? ` (${probe.version})` : ""}`);
  output.out(`  engine: ${probe.engine}`);
  if (probe.free_bytes !== null) output.out(`  free space: ${(probe.free_bytes / 1024 ** 3).toFixed(1)} GiB`);
  output.out(`  latency: ${probe.latency_ms} ms (probe ${probe.duration_ms} ms)`);
}
