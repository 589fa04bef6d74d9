/**
 * The text a job runs: exported `envvars`, the `[defaults].shell_prelude`, then the rendered command —
 * all of it inside the environment wrapper, so every line runs in the environment
 * (docs/reference/pipeline-format.md, decision 9).
 * Scratch jobs get absolute paths, because they run in a folder of their own.
 */
import { isAbsolute, join } from "node:path";
import type { Job } from "../expand/expand.js";
import { renderCommand, renderJobText, type RenderContext } from "../expand/render-command.js";
import { shellQuote } from "../expand/shell-quote.js";
import type { FileSet, Pipeline } from "../format/model.js";

function absoluteSet(set: FileSet, workdir: string): FileSet {
  return { names: set.names, paths: set.paths.map((path) => (isAbsolute(path) ? path : join(workdir, path))) };
}

/** The job with input and output paths made absolute (for scratch jobs). */
export function withAbsolutePaths(job: Job, workdir: string): Job {
  return { ...job, input: absoluteSet(job.input, workdir), output: absoluteSet(job.output, workdir) };
}

/** The job's command with envvars and prelude, before environment wrapping; undefined when it has none. */
export function jobScript(job: Job, pipeline: Pipeline, context: RenderContext): string | undefined {
  if (job.rule.shell === undefined && job.rule.script === undefined) return undefined;
  const lines: string[] = [];
  for (const [name, value] of Object.entries(job.rule.envvars)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue; // validate reports it; bash would refuse it
    lines.push(`export ${name}=${shellQuote(renderJobText(value, job, context))}`);
  }
  const prelude = pipeline.defaults.shell_prelude;
  if (prelude !== undefined && prelude.trim() !== "") lines.push(prelude);
  lines.push(renderCommand(job, context, pipeline.workflow.interpreter_map));
  return lines.join("\n");
}
