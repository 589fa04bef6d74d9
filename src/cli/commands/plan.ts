/**
 * `strand dry-run`, `strand debug` and `strand graph`: what a run would do, each job's rendered command,
 * and the rule or job graph.
 */
import { writeFile } from "node:fs/promises";
import { criticalPath, buildGraph, type JobGraph } from "../../engine/dag/graph.js";
import { graphDrawing } from "../../engine/dag/graph-drawing.js";
import { renderMermaid } from "../../engine/dag/render-mermaid.js";
import { renderSvg } from "../../engine/dag/render-svg.js";
import { selectJobs } from "../../engine/dag/select.js";
import { expandPipeline, type Job } from "../../engine/expand/expand.js";
import { renderCommand, renderContext, renderJobText, type RenderContext } from "../../engine/expand/render-command.js";
import { EngineError, makeFinding, type Finding } from "../../engine/findings.js";
import type { Pipeline } from "../../engine/format/model.js";
import { effectiveEnvironment, effectiveMemory, effectiveThreads, environmentKind, environmentLabel, environmentSpec } from "../../engine/format/rule-settings.js";
import { CHECKPOINT_FILE, readCheckpoint, type CheckpointData } from "../../engine/run/checkpoint/checkpoint.js";
import { planPipeline, type Plan } from "../../engine/run/plan.js";
import { planReferenceBuilds, type ReferencePlan } from "../../engine/run/reference-builds.js";
import { applyReentries } from "../../engine/run/checkpoint/reentry.js";
import { optionValue, optionValues, UsageError, type OptionSpec } from "../args.js";
import { FORCERUN_OPTION, loadFromArgs, PIPELINE_OPTIONS, SELECTION_OPTIONS, UNTIL_OPTION } from "../pipeline-options.js";
import { clampThreads, CORES_OPTION, coresOption } from "../run/cores.js";
import { printEnvelope } from "../json-envelope.js";
import { displayPath, findingJson, formatFinding, paint, type Output } from "../print.js";
import type { Command } from "./command.js";

interface RenderedJob {
  command: string | null;
  error: EngineError | null;
}

function tryRender(job: Job, context: RenderContext, pipeline: Pipeline): RenderedJob {
  try {
    return { command: renderCommand(job, context, pipeline.workflow.interpreter_map), error: null };
  } catch (error) {
    if (error instanceof EngineError) return { command: null, error };
    throw error;
  }
}

function jobEnvironmentLabel(job: Job, pipeline: Pipeline): string {
  return environmentLabel(effectiveEnvironment(job.rule, pipeline.defaults));
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}

function indent(text: string, prefix: string): string {
  return text
    .split("\n")
    .map((line, i) => (i === 0 ? line : prefix + line))
    .join("\n");
}

const DRY_RUN_OPTIONS: OptionSpec[] = [
  ...PIPELINE_OPTIONS,
  ...SELECTION_OPTIONS,
  UNTIL_OPTION,
  FORCERUN_OPTION,
  CORES_OPTION,
  { name: "rerun", description: "plan every selected job, even when up to date" },
  { name: "retry-failed", description: "plan only the jobs that failed in the last run, what depends on them and missing inputs" },
  { name: "resume-failed", description: "the same as --retry-failed" },
];

/** What the checkpoint held, for the plan's header and JSON. */
interface CheckpointSummary {
  path: string;
  found: boolean;
  completed: number;
  failed: number;
}

function summarise(checkpoint: CheckpointData | undefined): CheckpointSummary {
  let completed = 0;
  let failed = 0;
  for (const record of Object.values(checkpoint?.jobs ?? {})) {
    if (record.status === "completed") completed++;
    else failed++;
  }
  return { path: CHECKPOINT_FILE, found: checkpoint !== undefined, completed, failed };
}

export const dryRunCommand: Command = {
  usage: "strand dry-run [WORKFLOW] [-t RULE] [--until RULE] [-R RULE] [--module NAME] [--samples LIST] [--rerun] [--retry-failed] [--json] [KEY=VALUE…]",
  options: DRY_RUN_OPTIONS,
  async run(args, output) {
    const { pipeline, path } = await loadFromArgs(args, DRY_RUN_OPTIONS);
    const cores = coresOption(args);
    if (cores !== undefined) clampThreads(pipeline, cores);
    // Read-only: a dry-run never sets an unreadable checkpoint aside or writes anything; it only warns.
    const checkpointWarnings: Finding[] = [];
    const checkpoint = readCheckpoint(pipeline.dir, { warn: (message) => checkpointWarnings.push(makeFinding("CHECKPOINT", "warning", message)) });
    // Samples and pairs added by checkpoint rules in earlier runs are part of the pipeline a run would plan.
    if (checkpoint && checkpoint.reentries.length > 0) applyReentries(pipeline, checkpoint.reentries);
    // The same decisions a run makes first: which references it would build, and what that re-runs.
    const builds = await planReferenceBuilds(pipeline);
    const plan = planPipeline(pipeline, {
      targets: optionValues(args, "target"),
      module: optionValue(args, "module"),
      until: optionValues(args, "until"),
      rerun: args.flags.has("rerun"),
      forceRules: optionValues(args, "forcerun"),
      checkpoint,
      retryFailed: args.flags.has("retry-failed"),
      resumeFailed: args.flags.has("resume-failed"),
      rebuiltReferences: builds.filter((build) => build.build).map((build) => build.name),
    });
    plan.warnings.unshift(...checkpointWarnings);
    const summary = summarise(checkpoint);
    const context = renderContext(pipeline);
    const rendered = new Map<number, RenderedJob>();
    for (const entry of plan.jobs) rendered.set(entry.index, tryRender(entry.job, context, pipeline));
    const refused = [...rendered.values()].filter((job) => job.error);
    if (args.flags.has("json")) {
      printEnvelope(output, "dry-run", {
        ok: refused.length === 0,
        data: dryRunJson(plan, path, output, rendered, builds, summary),
        findings: [...pipeline.warnings, ...plan.warnings, ...refused.map((job) => job.error!.finding)],
      });
      return refused.length > 0 ? 1 : 0;
    }
    printDryRun(plan, path, output, rendered, builds, summary, args.flags.has("quiet"));
    return refused.length > 0 ? 1 : 0;
  },
};

function dryRunJson(plan: Plan, path: string, output: Output, rendered: Map<number, RenderedJob>, builds: ReferencePlan[], checkpoint: CheckpointSummary) {
  const { pipeline } = plan;
  return {
    schema_version: 1,
    workflow: displayPath(output, path),
    total_jobs: plan.counts.total,
    would_run: plan.counts.run,
    up_to_date: plan.counts.upToDate,
    skipped: plan.counts.conditionFalse,
    not_selected: plan.counts.notSelected,
    checkpoint,
    execution_order: plan.jobs.filter((entry) => entry.run).map((entry) => entry.job.name),
    plan: plan.jobs.map((entry) => {
      const job = entry.job;
      const environment = effectiveEnvironment(job.rule, pipeline.defaults);
      const render = rendered.get(entry.index)!;
      return {
        name: job.name,
        rule: job.template,
        status: entry.run ? "run" : "skip",
        reason: entry.reason,
        level: plan.graph.level[entry.index],
        threads: effectiveThreads(job.rule, pipeline.defaults),
        memory: effectiveMemory(job.rule, pipeline.defaults) ?? null,
        environment: { kind: environmentKind(environment), spec: environmentSpec(environment) },
        command: render.command,
        error: render.error ? findingJson(output, render.error.finding) : null,
        inputs: job.input.paths,
        outputs: job.output.paths,
        bindings: job.bindings,
      };
    }),
    sample_groups: pipeline.sample_groups,
    pairs: pipeline.pairs,
    reference_builds: builds,
  };
}

function printDryRun(plan: Plan, path: string, output: Output, rendered: Map<number, RenderedJob>, builds: ReferencePlan[], checkpoint: CheckpointSummary, quiet: boolean): void {
  const { pipeline, counts } = plan;
  const samples = pipeline.sample_groups.reduce((sum, group) => sum + group.samples.length, 0);
  for (const warning of [...pipeline.warnings, ...plan.warnings]) output.err(formatFinding(output, warning));
  output.out(`Plan for ${pipeline.workflow.name} (${displayPath(output, path)}): ${counts.total} jobs in ${plan.graph.levelCount} levels` + (samples > 0 || pipeline.pairs.length > 0 ? `; ${count(samples, "sample")} in ${count(pipeline.sample_groups.length, "group")}, ${count(pipeline.pairs.length, "pair")}` : ""));
  if (checkpoint.found) output.out(`Checkpoint ${checkpoint.path}: ${count(checkpoint.completed, "job")} completed, ${checkpoint.failed} failed`);
  const skipped = [
    counts.upToDate > 0 ? `${counts.upToDate} up to date` : "",
    counts.conditionFalse > 0 ? `${counts.conditionFalse} skipped (when condition false)` : "",
    counts.notSelected > 0 ? `${counts.notSelected} not selected` : "",
  ].filter(Boolean);
  output.out(paint(output, "bold", `${counts.run} jobs would execute`) + (skipped.length > 0 ? `; ${skipped.join("; ")}` : ""));
  const toBuild = builds.filter((build) => build.build);
  if (builds.length > 0) {
    output.out(`Reference builds: ${toBuild.length} of ${builds.length} would be built first`);
    for (const build of builds) output.out(`  ${build.build ? "⚙" : "✓"} ${build.name} → ${build.output}  [${build.build ? "build" : "skip"}: ${build.reason}]`);
  }
  output.out("");
  let number = 0;
  for (const entry of plan.jobs) {
    number++;
    const status = entry.run ? paint(output, "green", `[run: ${entry.reason.text}]`) : paint(output, "gray", `[skip: ${entry.reason.text}]`);
    output.out(`  ${number}. ${entry.job.name}  ${status}`);
    if (quiet) continue;
    const job = entry.job;
    const memory = effectiveMemory(job.rule, pipeline.defaults);
    output.out(`       threads=${effectiveThreads(job.rule, pipeline.defaults)}${memory ? `  memory=${memory}` : ""}  env=${jobEnvironmentLabel(job, pipeline)}`);
    if (job.output.paths.length > 0) output.out(`       outputs: ${job.output.paths.join(", ")}`);
    const render = rendered.get(entry.index)!;
    if (render.error) output.out(`       command: ${paint(output, "red", `(refused: ${render.error.message})`)}`);
    else if (render.command) output.out(`       command: ${indent(render.command.trim(), "         ")}`);
  }
  const refused = [...rendered.values()].filter((job) => job.error);
  if (refused.length > 0) {
    output.out("");
    output.out(`${paint(output, "red", "✗")} ${refused.length} job(s) cannot run:`);
    for (const job of refused.slice(0, 20)) output.out(formatFinding(output, job.error!.finding));
  }
}

const DEBUG_OPTIONS: OptionSpec[] = [...PIPELINE_OPTIONS, { name: "rule", short: "r", value: true, repeat: true, placeholder: "RULE", description: "show only this rule's jobs (prefix match)" }];

export const debugCommand: Command = {
  usage: "strand debug [WORKFLOW] [-r RULE] [--samples LIST] [--json]",
  options: DEBUG_OPTIONS,
  async run(args, output) {
    const { pipeline } = await loadFromArgs(args, DEBUG_OPTIONS);
    const expansion = expandPipeline(pipeline, "plan");
    const graph = buildGraph(expansion);
    const filters = optionValues(args, "rule");
    const context = renderContext(pipeline);
    const shown = Array.from(graph.order).filter((index) => {
      const job = graph.jobs[index]!;
      return filters.length === 0 || filters.some((filter) => job.template === filter || job.name.startsWith(filter));
    });
    if (filters.length > 0 && shown.length === 0) throw new UsageError(`-r ${filters.join(",")} matches no rule`, `rules: ${pipeline.rules.map((rule) => rule.name).join(", ")}`);
    const entries = shown.map((index) => {
      const job = graph.jobs[index]!;
      const render = tryRender(job, context, pipeline);
      const log = job.rule.log !== undefined ? safeRender(job.rule.log, job, context) : null;
      return { job, render, log };
    });
    if (args.flags.has("json")) {
      printEnvelope(output, "debug", {
        ok: !entries.some((entry) => entry.render.error),
        data: entries.map(({ job, render, log }) => ({
          name: job.name,
          rule: job.template,
          bindings: job.bindings,
          inputs: job.input.paths,
          outputs: job.output.paths,
          log,
          depends_on: job.dependsOn,
          environment: jobEnvironmentLabel(job, pipeline),
          command: render.command,
          error: render.error ? findingJson(output, render.error.finding) : null,
        })),
        findings: [...pipeline.warnings, ...entries.flatMap((entry) => (entry.render.error ? [entry.render.error.finding] : []))],
      });
      return entries.some((entry) => entry.render.error) ? 1 : 0;
    }
    for (const { job, render, log } of entries) {
      output.out(paint(output, "bold", `── ${job.name}`) + (job.name !== job.template ? paint(output, "gray", `  (rule ${job.template})`) : ""));
      const bindings = Object.entries(job.bindings);
      if (bindings.length > 0) output.out(`   wildcards: ${bindings.map(([name, value]) => `${name}=${value}`).join(" ")}`);
      if (job.input.paths.length > 0) output.out(`   inputs:    ${job.input.paths.join(" ")}`);
      if (job.output.paths.length > 0) output.out(`   outputs:   ${job.output.paths.join(" ")}`);
      if (log) output.out(`   log:       ${log}`);
      if (job.dependsOn.length > 0) output.out(`   after:     ${job.dependsOn.join(" ")}`);
      output.out(`   env:       ${jobEnvironmentLabel(job, pipeline)}`);
      if (render.error) output.out(`   command:   ${paint(output, "red", `(refused: ${render.error.message})`)}`);
      else if (render.command !== null && render.command !== "") output.out(`   command:\n${render.command.trim().split("\n").map((line) => `     ${line}`).join("\n")}`);
      else output.out("   command:   (none)");
      output.out("");
    }
    output.out(`${entries.length} job(s) from ${new Set(entries.map((entry) => entry.job.template)).size} rule(s)`);
    return entries.some((entry) => entry.render.error) ? 1 : 0;
  },
};

function safeRender(text: string, job: Job, context: RenderContext): string {
  try {
    return renderJobText(text, job, context);
  } catch {
    return text;
  }
}

const GRAPH_FORMATS = ["ascii", "dot", "json", "mermaid", "svg"] as const;
const GRAPH_OPTIONS: OptionSpec[] = [
  ...PIPELINE_OPTIONS,
  ...SELECTION_OPTIONS,
  UNTIL_OPTION,
  { name: "format", short: "f", value: true, placeholder: GRAPH_FORMATS.join("|"), description: "output format (default ascii)" },
  { name: "expanded", description: "show jobs (after expansion) instead of rules" },
  { name: "output", short: "o", value: true, placeholder: "FILE", description: "write to a file instead of stdout" },
];

export const graphCommand: Command = {
  usage: "strand graph [WORKFLOW] [-f ascii|dot|json|mermaid|svg] [--expanded] [-o FILE]",
  options: GRAPH_OPTIONS,
  async run(args, output) {
    const format = optionValue(args, "format") ?? (args.flags.has("json") ? "json" : "ascii");
    if (!(GRAPH_FORMATS as readonly string[]).includes(format)) throw new UsageError(`unknown graph format '${format}'`, `use one of ${GRAPH_FORMATS.join(", ")}`);
    const { pipeline } = await loadFromArgs(args, GRAPH_OPTIONS);
    const graph = buildGraph(expandPipeline(pipeline, args.flags.has("expanded") ? "plan" : "template"));
    const keep = selectJobs(graph, { targets: optionValues(args, "target"), module: optionValue(args, "module"), until: optionValues(args, "until") }, pipeline.modules);
    const text =
      format === "dot"
        ? graphDot(graph, pipeline, keep)
        : format === "json"
          ? JSON.stringify(graphJson(graph, pipeline, keep), null, 2)
          : format === "mermaid"
            ? renderMermaid(graphDrawing(graph, pipeline.workflow.name, keep))
            : format === "svg"
              ? renderSvg(graphDrawing(graph, pipeline.workflow.name, keep))
              : graphAscii(graph, pipeline, keep, output);
    const file = optionValue(args, "output");
    if (file) {
      await writeFile(file, text.endsWith("\n") ? text : text + "\n");
      output.err(`wrote ${file}`);
    }
    // --json wraps the graph in the common envelope: the graph document itself, or another format's text.
    if (args.flags.has("json")) printEnvelope(output, "graph", { ok: true, data: format === "json" ? JSON.parse(text) : { format, text }, findings: pipeline.warnings });
    else if (!file) output.out(text);
    return 0;
  },
};

function kept(graph: JobGraph, keep: Uint8Array | undefined): number[] {
  return Array.from(graph.order).filter((index) => !keep || keep[index]);
}

function keptEdges(graph: JobGraph, keep: Uint8Array | undefined): { from: number; to: number; kind: "file" | "declared" }[] {
  const edges: { from: number; to: number; kind: "file" | "declared" }[] = [];
  for (let e = 0; e < graph.edges.count; e++) {
    const from = graph.edges.from[e]!;
    const to = graph.edges.to[e]!;
    if (!keep || (keep[from] && keep[to])) edges.push({ from, to, kind: graph.edges.kind[e] === 1 ? "declared" : "file" });
  }
  return edges;
}

/** The graph document of the service's `dag` endpoint. */
export function graphJson(graph: JobGraph, pipeline: Pipeline, keep?: Uint8Array) {
  const nodes = kept(graph, keep);
  const levels: string[][] = Array.from({ length: graph.levelCount }, () => []);
  for (const index of nodes) levels[graph.level[index]!]!.push(graph.jobs[index]!.name);
  const nonEmpty = levels.filter((level) => level.length > 0);
  return {
    nodes: nodes.map((index) => {
      const job = graph.jobs[index]!;
      const environment = effectiveEnvironment(job.rule, pipeline.defaults);
      return {
        id: job.name,
        label: job.name,
        rule: job.template,
        environment: environmentKind(environment),
        threads: effectiveThreads(job.rule, pipeline.defaults),
        memory: effectiveMemory(job.rule, pipeline.defaults) ?? null,
        level: graph.level[index],
      };
    }),
    edges: keptEdges(graph, keep).map((edge) => ({ from: graph.jobs[edge.from]!.name, to: graph.jobs[edge.to]!.name, kind: edge.kind })),
    levels: nonEmpty,
    critical_path: criticalPath(graph),
    metrics: { nodes: nodes.length, edges: keptEdges(graph, keep).length, max_depth: Math.max(0, nonEmpty.length - 1), max_width: Math.max(0, ...nonEmpty.map((level) => level.length)) },
  };
}

function dotId(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function graphDot(graph: JobGraph, pipeline: Pipeline, keep: Uint8Array | undefined): string {
  const lines = [`digraph ${dotId(pipeline.workflow.name)} {`, "  rankdir=LR;", '  node [shape=box, style=rounded, fontname="Helvetica"];'];
  for (const index of kept(graph, keep)) lines.push(`  ${dotId(graph.jobs[index]!.name)};`);
  for (const edge of keptEdges(graph, keep)) lines.push(`  ${dotId(graph.jobs[edge.from]!.name)} -> ${dotId(graph.jobs[edge.to]!.name)}${edge.kind === "declared" ? " [style=dashed]" : ""};`);
  lines.push("}");
  return lines.join("\n");
}

function graphAscii(graph: JobGraph, pipeline: Pipeline, keep: Uint8Array | undefined, output: Output): string {
  const nodes = kept(graph, keep);
  const edges = keptEdges(graph, keep);
  const needs = new Map<number, string[]>();
  for (const edge of edges) {
    const list = needs.get(edge.to) ?? [];
    list.push(graph.jobs[edge.from]!.name);
    needs.set(edge.to, list);
  }
  const lines = [paint(output, "bold", `${pipeline.workflow.name}: ${nodes.length} nodes, ${edges.length} dependencies, ${graph.levelCount} levels`)];
  let level = -1;
  for (const index of nodes) {
    if (graph.level[index] !== level) {
      level = graph.level[index]!;
      lines.push("", paint(output, "cyan", `Level ${level}`));
    }
    const parents = needs.get(index);
    lines.push(`  ${graph.jobs[index]!.name}${parents ? paint(output, "gray", `  ← ${parents.join(", ")}`) : ""}`);
  }
  const path = criticalPath(graph);
  if (path.length > 0) lines.push("", `Critical path (${path.length}): ${path.join(" → ")}`);
  return lines.join("\n");
}
