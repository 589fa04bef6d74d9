/**
 * The `strand` command: picks the subcommand, parses its arguments, and turns every error into a message
 * and an exit code (0 ok, 1 pipeline problems, 2 usage). No stack traces unless STRAND_DEBUG is set.
 */
import { EngineError, makeFinding } from "../engine/findings.js";
import { engineVersion } from "../engine/version.js";
import { GLOBAL_OPTIONS, parseArgs, UsageError, type OptionSpec } from "./args.js";
import type { Command } from "./commands/command.js";
import { printEnvelope } from "./json-envelope.js";
import { formatFinding, paint, processOutput, type Output } from "./print.js";
import { ReportedFailure } from "./reported-failure.js";
import { nearestName, unknownOptionError } from "./suggest.js";

export interface CatalogEntry {
  name: string;
  summary: string;
  /** Loads the command's module on demand, so `--help` or one command does not load them all. */
  load: () => Promise<Command>;
}

const check = () => import("./commands/check.js");
const plan = () => import("./commands/plan.js");
const tools = () => import("./commands/tools.js");

/** Every command, in the order `strand --help` lists them (the CLI reference is written from this list). */
export const COMMANDS: readonly CatalogEntry[] = [
  { name: "validate", summary: "check a pipeline for errors (E codes)", load: async () => (await check()).validateCommand },
  { name: "lint", summary: "check a pipeline for errors, style problems, unknown keys and secrets", load: async () => (await check()).lintCommand },
  { name: "format", summary: "format a pipeline file canonically (comments kept)", load: async () => (await tools()).formatCommand },
  { name: "graph", summary: "show the rule graph (or the job graph with --expanded) as text, Graphviz dot, JSON, mermaid or SVG", load: async () => (await plan()).graphCommand },
  { name: "run", summary: "run a pipeline locally or on an HPC scheduler (SLURM, PBS, SGE, LSF)", load: async () => (await import("./commands/run.js")).runCommand },
  { name: "status", summary: "show the last run of a workdir: its state, counts and failed jobs", load: async () => (await import("./commands/status.js")).statusCommand },
  { name: "unlock", summary: "clear a workdir's run lock left by a run that is gone (--force for another host's)", load: async () => (await import("./commands/unlock.js")).unlockCommand },
  { name: "report", summary: "write a self-contained HTML report of a run: summary, rules, timeline, resources, failures", load: async () => (await import("./commands/report.js")).reportCommand },
  { name: "user", summary: "add an account to a team or hpc service (or reset its password and role), or list accounts", load: async () => (await import("./commands/user.js")).userCommand },
  { name: "serve", summary: "start the HTTP service (API and browser app) on 127.0.0.1:8080", load: async () => (await import("./commands/serve.js")).serveCommand },
  { name: "dry-run", summary: "show which jobs a run would execute, and why", load: async () => (await plan()).dryRunCommand },
  { name: "debug", summary: "show every expanded job with its wildcards, paths and rendered command", load: async () => (await plan()).debugCommand },
  { name: "config", summary: "show the resolved config, pipeline statistics, or one config value", load: async () => (await tools()).configCommand },
  { name: "diff", summary: "compare two pipelines: structured changes and a text diff", load: async () => (await tools()).diffCommand },
  { name: "export", summary: "write a Dockerfile or an Apptainer/Singularity definition for a pipeline", load: async () => (await tools()).exportCommand },
  { name: "schema", summary: "print the JSON Schema of the pipeline format", load: async () => (await tools()).schemaCommand },
  { name: "license", summary: "show the license status (or check a license file)", load: async () => (await import("./commands/license.js")).licenseCommand },
  { name: "template", summary: "list the built-in pipeline templates, or print one to start a pipeline from", load: async () => (await import("./commands/template.js")).templateCommand },
  { name: "plugin", summary: "make an Ed25519 key, sign a plugin manifest, or check a manifest and its signature", load: async () => (await import("./commands/plugin.js")).pluginCommand },
  { name: "data", summary: "analyse sequencing data (formats by content, pairs, lanes, samples, a template to start from) or write a sample sheet", load: async () => (await import("./commands/data.js")).dataCommand },
  { name: "cluster", summary: "write HPC job scripts (SLURM, PBS, SGE, LSF) with a submit.sh; show or cancel scheduler jobs; register and probe remote clusters", load: async () => (await import("./commands/cluster.js")).clusterCommand },
];

function usage(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    "strand — plan, check and run bioinformatics pipelines written as TOML (.oxoflow)",
    "",
    "Usage: strand <command> [WORKFLOW] [options]",
    "",
    "Commands:",
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    "",
    "WORKFLOW is a .oxoflow file or a folder (main.oxoflow, else the first *.oxoflow); default: the current folder.",
    "Run `strand help <command>` (or `strand <command> --help`) for a command's options. Exit codes: 0 ok, 1 pipeline problems, 2 usage errors.",
  ].join("\n");
}

function commandHelp(entry: CatalogEntry, command: Command): string {
  const lines = [`strand ${entry.name} — ${entry.summary}`, "", `Usage: ${command.usage}`, "", "Options:"];
  const options: OptionSpec[] = [...command.options, { name: "json", description: "print a JSON document on stdout" }, { name: "no-color", description: "do not colour the output" }];
  for (const option of options) {
    const flag = `${option.short ? `-${option.short}, ` : "    "}--${option.name}${option.value ? ` ${option.placeholder ?? "VALUE"}` : ""}`;
    lines.push(`  ${flag.padEnd(34)} ${option.description}`);
  }
  if (command.options.some((option) => option.name === "arg")) {
    lines.push("", "Config values: --arg KEY=VALUE, a trailing KEY=VALUE, or --KEY VALUE for keys the pipeline's [config] declares.");
  }
  return lines.join("\n");
}

/** Runs the command line and returns the exit code. */
export async function runCli(argv: string[], output: Output = processOutput(argv.includes("--no-color"))): Promise<number> {
  const [first, ...afterFirst] = argv;
  // `strand help CMD` is `strand CMD --help`; `strand help` alone lists the commands.
  const asHelp = first === "help" && afterFirst.length > 0 && !afterFirst[0]!.startsWith("-");
  const name = asHelp ? afterFirst[0] : first;
  const rest = asHelp ? ["--help"] : afterFirst;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    output.out(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    output.out(`strand ${engineVersion()}`);
    return 0;
  }
  const entry = COMMANDS.find((candidate) => candidate.name === name);
  if (!entry) {
    const near = nearestName(name, [...COMMANDS.map((candidate) => candidate.name), "help", "version"]);
    output.err(`strand: unknown command '${name}'${near ? ` (did you mean '${near}'?)` : ""}`);
    output.err("Run `strand --help` to see the commands.");
    return 2;
  }
  const json = rest.includes("--json");
  const command = await entry.load();
  try {
    const args = parseArgs(rest, command.options);
    if (args.flags.has("help")) {
      output.out(commandHelp(entry, command));
      return 0;
    }
    // Commands that load no pipeline have no config keys a `--KEY` could set: an unknown flag is a typo.
    const firstUnknown = args.configFlags[0];
    if (firstUnknown && !command.options.some((option) => option.name === "arg")) throw unknownOptionError(`--${firstUnknown.name}`, [...command.options, ...GLOBAL_OPTIONS]);
    return await command.run(args, output);
  } catch (error) {
    return reportError(error, { name: entry.name, usage: command.usage }, output, json);
  }
}

function reportError(error: unknown, command: { name: string; usage: string }, output: Output, json: boolean): number {
  if (error instanceof UsageError || (error instanceof EngineError && error.code === "USAGE_ERROR")) {
    const suggestion = error instanceof UsageError ? error.suggestion : error.finding.suggestion;
    if (json) printEnvelope(output, command.name, { ok: false, data: null, findings: [makeFinding("USAGE_ERROR", "error", error.message, { suggestion })] });
    output.err(`strand ${command.name}: ${error.message}`);
    if (suggestion) output.err(`  hint: ${suggestion}`);
    output.err(`Usage: ${command.usage}`);
    return 2;
  }
  if (error instanceof EngineError || error instanceof ReportedFailure) {
    if (json) printEnvelope(output, command.name, { ok: false, data: null, findings: [error.finding] });
    output.err(`${paint(output, "red", "✗")} strand ${command.name} failed`);
    output.err(formatFinding(output, error.finding));
    return 1;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (json) printEnvelope(output, command.name, { ok: false, data: null, findings: [makeFinding("INTERNAL", "error", message)] });
  output.err(`strand ${command.name}: internal error: ${message}`);
  if (process.env.STRAND_DEBUG && error instanceof Error && error.stack) output.err(error.stack);
  else output.err("  this is a bug in strand; rerun with STRAND_DEBUG=1 for details and report it");
  return 1;
}
