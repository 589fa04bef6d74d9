/**
 * `strand cluster submit|status|cancel`: job scripts for an HPC scheduler (one per expanded job, plus a
 * `submit.sh` that chains them with the scheduler's dependencies), and the state or cancellation of
 * scheduler jobs by id. A pipeline's `--profile` `[cluster]` table supplies the backend and defaults.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { renderContext } from "../../engine/expand/render-command.js";
import { effectiveEnvironment, effectiveMemory, effectiveThreads, memoryToMegabytes } from "../../engine/format/rule-settings.js";
import type { Cluster } from "../../engine/format/model.js";
import { BACKEND_NAMES, createBackend, isBackendName, schedulerNamed, type BackendName } from "../../engine/run/cluster/scheduler-registry.js";
import { renderJobScript } from "../../engine/run/cluster/job-script.js";
import { schedulerJobName } from "../../engine/run/cluster/scheduler-job-names.js";
import { DEFAULT_RETRY_POLICY, schedulerCommandRunner } from "../../engine/run/cluster/scheduler-commands.js";
import { jobFileName } from "../../engine/run/cluster/submission-records.js";
import { renderSubmitScript, type SubmitEntry } from "../../engine/run/cluster/submit-script.js";
import { wrapCommand } from "../../engine/run/environments/environment-wrap.js";
import { jobScript } from "../../engine/run/job-command.js";
import { planPipeline } from "../../engine/run/plan.js";
import { optionValue, optionValues, UsageError, type OptionSpec, type ParsedArgs } from "../args.js";
import { loadFromArgs, PIPELINE_OPTIONS, SELECTION_OPTIONS } from "../pipeline-options.js";
import { makeFinding, type Finding } from "../../engine/findings.js";
import { printEnvelope } from "../json-envelope.js";
import { displayPath, type Output } from "../print.js";
import type { Command } from "./command.js";
import { isRegistrySubcommand, REGISTRY_OPTIONS, REGISTRY_SUBCOMMANDS, runRegistry } from "./cluster-registry.js";

const SUBCOMMANDS = ["submit", "status", "cancel"] as const;

/** The schedulers `-b` takes, as usage texts write them (`slurm|pbs|sge|lsf`). */
const SCHEDULER_CHOICES = BACKEND_NAMES.join("|");

const CLUSTER_OPTIONS: OptionSpec[] = [
  ...PIPELINE_OPTIONS,
  ...SELECTION_OPTIONS,
  { name: "backend", short: "b", value: true, placeholder: SCHEDULER_CHOICES, description: "the scheduler (default: the profile's [cluster] backend)" },
  { name: "output", short: "o", value: true, placeholder: "DIR", description: "submit: folder for the job scripts (default cluster_scripts)" },
  { name: "queue", short: "q", value: true, placeholder: "NAME", description: "submit: partition or queue (a rule's resources.partition wins)" },
  { name: "account", short: "a", value: true, placeholder: "NAME", description: "submit: account to charge" },
  { name: "walltime", value: true, placeholder: "TIME", description: "submit: walltime (4h, 30m, 04:00:00) for rules without resources.time_limit" },
  { name: "extra-arg", value: true, repeat: true, placeholder: "ARG", description: "submit: extra directive, written verbatim (repeatable)" },
  { name: "with-dependencies", description: "submit: also write submit.sh, which submits every job after the jobs it needs" },
  { name: "dry-run", description: "submit: print the scripts instead of writing them" },
];

function chooseBackend(args: ParsedArgs, profile: Cluster | undefined): BackendName {
  const name = optionValue(args, "backend") ?? profile?.backend;
  if (name === undefined) throw new UsageError("no scheduler given", `add -b ${SCHEDULER_CHOICES}, or set backend in the profile's [cluster] table`);
  if (!isBackendName(name)) throw new UsageError(`unknown scheduler '${name}'`, `use one of ${BACKEND_NAMES.join(", ")}`);
  return name;
}

interface WrittenScript {
  name: string;
  file: string;
  text: string;
  after: string[];
}

async function submitScripts(args: ParsedArgs, output: Output): Promise<number> {
  const { pipeline, path } = await loadFromArgs({ ...args, positionals: args.positionals.slice(1) }, CLUSTER_OPTIONS);
  const backend = chooseBackend(args, pipeline.cluster);
  const profile = pipeline.cluster;
  const outputDir = resolve(optionValue(args, "output") ?? "cluster_scripts");
  const logFolder = join(pipeline.dir, "logs");
  const extraArgs = [...(profile?.extra_args ?? []), ...(args.options.get("extra-arg") ?? [])];
  // Every selected job gets a script (fresh or not): the scripts are a way to run the whole pipeline.
  const plan = planPipeline(pipeline, { targets: optionValues(args, "target"), module: optionValue(args, "module"), rerun: true });
  const context = renderContext(pipeline);
  const included = new Set(plan.jobs.filter((entry) => entry.run).map((entry) => entry.index));
  const findings: Finding[] = [...pipeline.warnings, ...plan.warnings];
  const warnings: string[] = findings.map((finding) => finding.message);
  const scripts: WrittenScript[] = [];

  for (const entry of plan.jobs) {
    if (!entry.run) continue;
    const { job } = entry;
    const { rule } = job;
    const memory = effectiveMemory(rule, pipeline.defaults);
    const command = jobScript(job, pipeline, context) ?? ": # this rule has no command";
    const wrapped = wrapCommand(effectiveEnvironment(rule, pipeline.defaults), command, {
      workdir: pipeline.dir,
      memoryMb: memoryToMegabytes(memory),
      machineMemoryMb: context.machine.memoryMb,
      ruleName: rule.name,
    });
    const base = jobFileName(job.name);
    const file = `${base === "submit" ? "submit-job" : base}.sh`;
    const rendered = renderJobScript(backend, {
      name: job.name,
      rule: rule.name,
      // The queue shows every job's name to everyone on the cluster: the rule and a number, not the sample.
      jobName: schedulerJobName(scripts.length + 1, { rule: job.template }),
      threads: effectiveThreads(rule, pipeline.defaults),
      memory,
      cwd: pipeline.dir,
      command: wrapped,
      stdoutPath: join(logFolder, `${base}.out`),
      stderrPath: join(logFolder, `${base}.err`),
      cluster: {
        partition: rule.resources.partition ?? optionValue(args, "queue") ?? profile?.partition,
        account: optionValue(args, "account") ?? profile?.account,
        walltime: rule.resources.time_limit ?? optionValue(args, "walltime") ?? profile?.walltime,
        gpu: rule.resources.gpu,
        gpu_spec: rule.resources.gpu_spec,
        extra_args: extraArgs,
      },
    });
    warnings.push(...rendered.warnings);
    findings.push(...rendered.warnings.map((message) => makeFinding("CLUSTER_SCRIPT", "warning", message, { rule: rule.name })));
    const after: string[] = [];
    for (let k = plan.graph.predStart[entry.index]!; k < plan.graph.predStart[entry.index + 1]!; k++) {
      const parent = plan.graph.pred[k]!;
      if (included.has(parent)) after.push(plan.graph.jobs[parent]!.name);
    }
    scripts.push({ name: job.name, file, text: rendered.text, after });
  }

  const withDependencies = args.flags.has("with-dependencies");
  const entries: SubmitEntry[] = scripts.map((script) => ({ name: script.name, script: script.file, after: script.after }));
  const submitText = withDependencies ? renderSubmitScript(backend, entries, { workflow: pipeline.workflow.name, logFolder }) : undefined;
  const dryRun = args.flags.has("dry-run");
  if (!dryRun) {
    await mkdir(outputDir, { recursive: true });
    // The scheduler opens the log files before a script runs, so their folder must exist before submitting.
    await mkdir(logFolder, { recursive: true });
    for (const script of scripts) await writeFile(join(outputDir, script.file), script.text, { mode: 0o755 });
    if (submitText !== undefined) await writeFile(join(outputDir, "submit.sh"), submitText, { mode: 0o755 });
  }

  const shownDir = displayPath(output, outputDir);
  if (args.flags.has("json")) {
    printEnvelope(output, "cluster submit", {
      ok: true,
      findings,
      data: {
        workflow: displayPath(output, path),
        backend,
        output_dir: shownDir,
        dry_run: dryRun,
        jobs: scripts.map((script) => ({ name: script.name, script: join(shownDir, script.file), after: script.after })),
        submit_script: submitText !== undefined ? join(shownDir, "submit.sh") : null,
        log_folder: logFolder,
        warnings,
      },
    });
    return 0;
  }
  for (const warning of warnings) output.err(`warning: ${warning}`);
  if (dryRun) {
    for (const script of scripts) output.out(`── ${join(shownDir, script.file)}\n${script.text}`);
    if (submitText !== undefined) output.out(`── ${join(shownDir, "submit.sh")}\n${submitText}`);
    output.out(`(dry run) would write ${scripts.length} ${backend.toUpperCase()} job script(s) to ${shownDir}${submitText !== undefined ? " and submit.sh" : ""}`);
    return 0;
  }
  output.out(`Wrote ${scripts.length} ${backend.toUpperCase()} job script(s) to ${shownDir}${submitText !== undefined ? ", and submit.sh" : ""}`);
  for (const script of scripts) output.out(`  ${script.file}${script.after.length > 0 ? `  (after ${script.after.join(", ")})` : ""}`);
  output.out(`Job logs go to ${displayPath(output, logFolder)}/<job>.out and .err`);
  output.out("");
  if (submitText !== undefined) {
    output.out("Submit every job in dependency order:");
    output.out(`  bash ${join(shownDir, "submit.sh")}`);
  } else {
    output.out("Submit a job:");
    output.out(`  ${schedulerNamed(backend).submitByHand(join(shownDir, scripts[0]?.file ?? "<job>.sh"))}`);
    if (scripts.some((script) => script.after.length > 0)) {
      output.out("Some jobs need others to finish first: add --with-dependencies for a submit.sh that submits them in order.");
    }
  }
  return 0;
}

function jobIds(args: ParsedArgs, subcommand: string): string[] {
  const ids = args.positionals.slice(1);
  if (ids.length === 0) throw new UsageError(`cluster ${subcommand} needs at least one job id`, `strand cluster ${subcommand} -b ${BACKEND_NAMES[0]} 12345`);
  return ids;
}

/** Scheduler calls from the command line: a couple of quick retries, then an answer. */
const commandRunner = () => schedulerCommandRunner({ ...DEFAULT_RETRY_POLICY, maxRetries: 2 });

async function showStatus(args: ParsedArgs, output: Output): Promise<number> {
  const ids = jobIds(args, "status");
  const backend = chooseBackend(args, undefined);
  const statuses = await createBackend(backend).queryStatus(ids, commandRunner());
  const rows = ids.map((id) => {
    const status = statuses.get(id);
    return { id, state: status?.state ?? "unknown", exit_code: status?.exitCode ?? null, native: status?.native ?? null };
  });
  if (args.flags.has("json")) {
    printEnvelope(output, "cluster status", { ok: true, data: { backend, jobs: rows } });
    return 0;
  }
  const width = Math.max(...ids.map((id) => id.length));
  for (const row of rows) {
    const exit = row.exit_code !== null ? `  exit ${row.exit_code}` : "";
    const native = row.native !== null ? `  (${row.native})` : "  (not known to the scheduler)";
    output.out(`${row.id.padEnd(width)}  ${row.state}${exit}${native}`);
  }
  return 0;
}

async function cancelJobs(args: ParsedArgs, output: Output): Promise<number> {
  const ids = jobIds(args, "cancel");
  const backend = createBackend(chooseBackend(args, undefined));
  await commandRunner()(backend.cancelCommand(ids), { answers: backend.cancelAnswers });
  if (args.flags.has("json")) printEnvelope(output, "cluster cancel", { ok: true, data: { backend: backend.name, cancelled: ids } });
  else output.out(`Cancel sent to ${backend.name.toUpperCase()} for ${ids.length} job(s): ${ids.join(" ")}`);
  return 0;
}

export const clusterCommand: Command = {
  usage:
    `strand cluster submit [WORKFLOW] -b ${SCHEDULER_CHOICES} [-o DIR] [-q QUEUE] [-a ACCOUNT] [--walltime TIME] [--extra-arg ARG…] [-t RULE] [--module NAME] [--with-dependencies] [--dry-run]\n` +
    `       strand cluster status -b ${SCHEDULER_CHOICES} ID…\n` +
    `       strand cluster cancel -b ${SCHEDULER_CHOICES} ID…\n` +
    "       strand cluster add ID --host HOST --user NAME --remote-dir DIR (--key FILE | --key-path PATH) [--port N] [--host-key SHA256:…] [--scheduler S]\n" +
    "       strand cluster list | probe ID | confirm-key ID | remove ID   (remote clusters of the service's store: SERVICE_DATA_DIR or SERVICE_DATABASE_URL)",
  options: [...CLUSTER_OPTIONS, ...REGISTRY_OPTIONS],
  async run(args, output) {
    const subcommand = args.positionals[0];
    if (isRegistrySubcommand(subcommand)) return runRegistry(args, output);
    if (subcommand === "submit") return submitScripts(args, output);
    if (subcommand === "status") return showStatus(args, output);
    if (subcommand === "cancel") return cancelJobs(args, output);
    throw new UsageError(subcommand === undefined ? "cluster needs a subcommand" : `unknown cluster subcommand '${subcommand}'`, `use one of ${[...SUBCOMMANDS, ...REGISTRY_SUBCOMMANDS].join(", ")}`);
  },
};

