/**
 * `-c/--cores N`, as Snakemake means it: N threads in all for the jobs running at once (a job's threads
 * count against it), and a job asking for more threads than N runs with N — clamped with a warning, and
 * `{threads}` in its command says N — instead of stopping the run as an explicit --max-threads does.
 */
import { makeFinding } from "../../engine/findings.js";
import type { Pipeline } from "../../engine/format/model.js";
import { effectiveThreads } from "../../engine/format/rule-settings.js";
import { optionValue, UsageError, type OptionSpec, type ParsedArgs } from "../args.js";

/** The option, shared by `run` and `dry-run` (so `run -n -c 4` shows the clamped threads). */
export const CORES_OPTION: OptionSpec = { name: "cores", short: "c", value: true, placeholder: "N", description: "threads in all for the jobs running at once; a job asking for more runs with N (warned)" };

/** The `--cores` value, if given; a usage error for anything but a whole number of at least 1. */
export function coresOption(args: ParsedArgs): number | undefined {
  const text = optionValue(args, "cores");
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--cores needs a whole number of at least 1, got '${text}'`, "strand run -c 8");
  return value;
}

/** Lowers every rule's threads to at most `cores`, adding one warning per clamped rule to the pipeline's warnings. */
export function clampThreads(pipeline: Pipeline, cores: number): void {
  for (const rule of pipeline.rules) {
    const threads = effectiveThreads(rule, pipeline.defaults);
    if (threads <= cores) continue;
    rule.threads = cores;
    pipeline.warnings.push(
      makeFinding("CORES_CLAMPED", "warning", `rule '${rule.name}' asks for ${threads} threads, more than --cores ${cores}: its jobs run with ${cores}`, {
        rule: rule.name,
        suggestion: `give -c ${threads} or more to run it with ${threads} threads`,
      }),
    );
  }
}
