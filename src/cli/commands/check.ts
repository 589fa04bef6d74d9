/**
 * `strand validate` and `strand lint`.
 */
import { lintPipeline } from "../../engine/check/lint.js";
import { validatePipeline } from "../../engine/check/validate.js";
import { SWITCHED_OFF } from "../../engine/expand/empty-fan-outs.js";
import { EngineError } from "../../engine/findings.js";
import { discoverWorkflow } from "../../engine/format/load.js";
import type { OptionSpec, ParsedArgs } from "../args.js";
import { loadFromArgs, PIPELINE_OPTIONS, type LoadedPipeline } from "../pipeline-options.js";
import { printEnvelope } from "../json-envelope.js";
import { displayPath, formatFinding, paint, type Output } from "../print.js";
import type { Command } from "./command.js";

const VALIDATE_OPTIONS: OptionSpec[] = [...PIPELINE_OPTIONS, { name: "as-include", description: "check a file meant to be included (missing inputs are fine)" }];

/** Prints a load failure of a checking command, as text or JSON, and returns exit code 1. */
function reportLoadFailure(command: string, args: ParsedArgs, output: Output, error: EngineError): number {
  const workflow = safeWorkflowPath(args);
  if (args.flags.has("json")) {
    const shown = workflow ? displayPath(output, workflow) : null;
    const data =
      command === "validate"
        ? { workflow: shown, valid: false, rules: 0, dependencies: 0, error_count: 1, warning_count: 0, missing_inputs: [] }
        : { workflow: shown, strict: args.flags.has("strict"), error_count: 1, warning_count: 0, info_count: 0, passed: false };
    printEnvelope(output, command, { ok: false, data, findings: [error.finding] });
  } else {
    output.out(`${paint(output, "red", "✗")} ${workflow ? displayPath(output, workflow) : "workflow"} — could not be loaded`);
    output.out(formatFinding(output, error.finding));
    if (command === "lint") output.out("Summary: 1 error(s), 0 warning(s), 0 info");
  }
  return 1;
}

/**
 * Loads the pipeline of a checking command. A pipeline that fails to load is itself a check result (exit 1
 * with the positioned error, in the command's own JSON shape); usage and missing-file errors go up.
 */
async function loadOrReport(command: "validate" | "lint", args: ParsedArgs, specs: OptionSpec[], output: Output): Promise<LoadedPipeline | number> {
  try {
    return await loadFromArgs(args, specs);
  } catch (error) {
    if (error instanceof EngineError && error.code !== "USAGE_ERROR" && error.code !== "IO_ERROR") return reportLoadFailure(command, args, output, error);
    throw error;
  }
}

function safeWorkflowPath(args: ParsedArgs): string | undefined {
  try {
    return discoverWorkflow(args.positionals[0]);
  } catch {
    return undefined;
  }
}

export const validateCommand: Command = {
  usage: "strand validate [WORKFLOW] [--json] [--as-include]",
  options: VALIDATE_OPTIONS,
  async run(args, output) {
    const loaded = await loadOrReport("validate", args, VALIDATE_OPTIONS, output);
    if (typeof loaded === "number") return loaded;
    const result = validatePipeline(loaded.pipeline, { asInclude: args.flags.has("as-include") });
    const errors = result.findings.filter((finding) => finding.severity === "error");
    const warnings = result.findings.filter((finding) => finding.severity !== "error");
    const shown = displayPath(output, loaded.path);
    if (args.flags.has("json")) {
      printEnvelope(output, "validate", {
        ok: result.valid,
        data: { workflow: shown, valid: result.valid, rules: result.rules, dependencies: result.dependencies, error_count: errors.length, warning_count: warnings.length, missing_inputs: result.missingInputs },
        findings: [...errors, ...warnings],
      });
      return result.valid ? 0 : 1;
    }
    if (result.valid) {
      output.out(`${paint(output, "green", "✓")} ${shown} — ${result.rules} rules, ${result.dependencies} dependencies${result.rules === 0 ? paint(output, "yellow", " (warning: the workflow has no rules)") : ""}`);
    } else {
      output.out(`${paint(output, "red", "✗")} ${shown} — ${errors.length} error(s)`);
      for (const finding of errors) output.out(formatFinding(output, finding));
    }
    // A branch switched off by an empty list changes what a run does, so it is shown here as dry-run shows it.
    for (const finding of warnings) if (finding.code === SWITCHED_OFF && !args.flags.has("quiet")) output.out(formatFinding(output, finding));
    if (result.missingInputs.length > 0 && !args.flags.has("quiet")) {
      const list = result.missingInputs.slice(0, 10).join(", ") + (result.missingInputs.length > 10 ? `, … (${result.missingInputs.length} in all)` : "");
      output.out(`  ${paint(output, "yellow", "warning")}: ${result.missingInputs.length} input(s) do not exist yet and no rule produces them: ${list}`);
    }
    return result.valid ? 0 : 1;
  },
};

const LINT_OPTIONS: OptionSpec[] = [...PIPELINE_OPTIONS, { name: "strict", description: "fail on warnings too" }];

export const lintCommand: Command = {
  usage: "strand lint [WORKFLOW] [--strict] [--json]",
  options: LINT_OPTIONS,
  async run(args, output) {
    const loaded = await loadOrReport("lint", args, LINT_OPTIONS, output);
    if (typeof loaded === "number") return loaded;
    const result = lintPipeline(loaded.pipeline, { strict: args.flags.has("strict") });
    const shown = displayPath(output, loaded.path);
    if (args.flags.has("json")) {
      printEnvelope(output, "lint", {
        ok: result.passed,
        data: { workflow: shown, strict: result.strict, error_count: result.errors, warning_count: result.warnings, info_count: result.infos, passed: result.passed },
        findings: result.findings,
      });
      return result.passed ? 0 : 1;
    }
    const order = { error: 0, warning: 1, info: 2 } as const;
    const findings = args.flags.has("quiet") ? result.findings.filter((finding) => finding.severity !== "info") : result.findings;
    const sorted = [...findings].sort((a, b) => order[a.severity] - order[b.severity]);
    output.out(`${shown}:`);
    for (const finding of sorted) output.out(formatFinding(output, finding));
    output.out(`Summary: ${result.errors} error(s), ${result.warnings} warning(s), ${result.infos} info`);
    return result.passed ? 0 : 1;
  },
};
