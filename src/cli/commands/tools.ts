/**
 * `strand format`, `diff`, `export`, `schema` and `config show|stats|get`.
 */
import { readFile, writeFile } from "node:fs/promises";
import { stringify } from "smol-toml";
import { z } from "zod";
import { maskedConfig, renderConfigValue } from "../../engine/format/config.js";
import { formatPipelineText, isFormatted } from "../../engine/format/canonical-format.js";
import { discoverWorkflow, loadPipeline } from "../../engine/format/load.js";
import { readPipelineText } from "../../engine/format/parse-source.js";
import { pipelineFileSchema } from "../../engine/format/schema.js";
import { diffPipelines, formatDiffText } from "../../engine/tools/diff.js";
import { exportPipeline, EXPORT_FORMATS } from "../../engine/tools/export.js";
import { pipelineStats } from "../../engine/tools/stats.js";
import { optionValue, UsageError, type OptionSpec } from "../args.js";
import { loadFromArgs, PIPELINE_OPTIONS } from "../pipeline-options.js";
import { makeFinding } from "../../engine/findings.js";
import { printEnvelope } from "../json-envelope.js";
import { displayPath, paint, printJson } from "../print.js";
import type { Command } from "./command.js";

const FORMAT_OPTIONS: OptionSpec[] = [
  { name: "check", description: "only check: exit 1 when the file is not formatted" },
  { name: "output", short: "o", value: true, placeholder: "FILE", description: "write the result to FILE (may be the input itself)" },
];

export const formatCommand: Command = {
  usage: "strand format [WORKFLOW] [--check] [-o FILE]",
  options: FORMAT_OPTIONS,
  async run(args, output) {
    const path = discoverWorkflow(args.positionals[0]);
    const shown = displayPath(output, path);
    const text = await readPipelineText(path, shown);
    const json = args.flags.has("json");
    if (args.flags.has("check")) {
      const formatted = isFormatted(text, shown);
      if (json) {
        printEnvelope(output, "format", { ok: formatted, data: { workflow: shown, formatted } });
        return formatted ? 0 : 1;
      }
      if (formatted) {
        output.out(`${paint(output, "green", "✓")} ${shown} is already formatted`);
        return 0;
      }
      output.out(`${paint(output, "red", "✗")} ${shown} needs formatting`);
      output.out(`  run: strand format ${shown} -o ${shown}`);
      return 1;
    }
    const formatted = formatPipelineText(text, shown);
    const target = optionValue(args, "output");
    if (target) {
      await writeFile(target, formatted);
      output.err(`${formatted === text ? "unchanged" : "formatted"}: ${target}`);
    }
    if (json) printEnvelope(output, "format", { ok: true, data: { workflow: shown, changed: formatted !== text, written: target ?? null, text: target ? null : formatted } });
    else if (!target) process.stdout.write(formatted);
    return 0;
  },
};

export const diffCommand: Command = {
  usage: "strand diff A B [--json]",
  options: [],
  async run(args, output) {
    if (args.positionals.length !== 2) throw new UsageError("diff needs two workflows", "strand diff old.oxoflow new.oxoflow");
    const [pathA, pathB] = args.positionals.map((argument) => discoverWorkflow(argument)) as [string, string];
    const [a, b] = await Promise.all([loadPipeline(pathA), loadPipeline(pathB)]);
    const [textA, textB] = await Promise.all([readFile(pathA, "utf8"), readFile(pathB, "utf8")]);
    const labels = { a: displayPath(output, pathA), b: displayPath(output, pathB) };
    const result = diffPipelines(a, b, textA, textB, labels);
    if (args.flags.has("json")) printEnvelope(output, "diff", { ok: true, data: { a: labels.a, b: labels.b, ...result }, findings: [...a.warnings, ...b.warnings] });
    else output.out(formatDiffText(result, labels.a, labels.b));
    return 0;
  },
};

const EXPORT_OPTIONS: OptionSpec[] = [
  ...PIPELINE_OPTIONS,
  { name: "format", short: "f", value: true, placeholder: EXPORT_FORMATS.join("|"), description: "container recipe to write (default docker)" },
  { name: "output", short: "o", value: true, placeholder: "FILE", description: "write to FILE instead of stdout" },
];

export const exportCommand: Command = {
  usage: "strand export [WORKFLOW] [-f docker|singularity] [-o FILE]",
  options: EXPORT_OPTIONS,
  async run(args, output) {
    const { pipeline } = await loadFromArgs(args, EXPORT_OPTIONS);
    const result = exportPipeline(pipeline, optionValue(args, "format") ?? "docker");
    const target = optionValue(args, "output");
    if (target) {
      await writeFile(target, result.content);
      output.err(`wrote ${target} (${result.format})`);
    }
    if (args.flags.has("json")) printEnvelope(output, "export", { ok: true, data: { ...result, written: target ?? null }, findings: pipeline.warnings });
    else if (!target) process.stdout.write(result.content);
    return 0;
  },
};

export const schemaCommand: Command = {
  usage: "strand schema",
  options: [],
  async run(args, output) {
    const schema = z.toJSONSchema(pipelineFileSchema, { io: "input", unrepresentable: "any" });
    const document = { ...schema, title: "strand pipeline (.oxoflow)", description: "A bioinformatics pipeline written as TOML. Unknown keys are accepted; `strand lint` reports them." };
    // The schema is a JSON document already; --json wraps it like every other command's output.
    if (args.flags.has("json")) printEnvelope(output, "schema", { ok: true, data: document });
    else printJson(output, document);
    return 0;
  },
};

const CONFIG_OPTIONS: OptionSpec[] = [...PIPELINE_OPTIONS];

export const configCommand: Command = {
  usage: "strand config show|stats|get [KEY] [WORKFLOW] [--json]",
  options: CONFIG_OPTIONS,
  async run(args, output) {
    const action = args.positionals.shift();
    if (action !== "show" && action !== "stats" && action !== "check" && action !== "get") {
      throw new UsageError(`config needs an action: show, stats or get`, "strand config show main.oxoflow");
    }
    const key = action === "get" ? args.positionals.shift() : undefined;
    if (action === "get" && !key) throw new UsageError("config get needs a KEY", "strand config get genome main.oxoflow");
    const { pipeline } = await loadFromArgs(args, CONFIG_OPTIONS);
    const config = maskedConfig(pipeline.config, pipeline.configMeta);
    if (action === "get") {
      const value = config[key!];
      if (value === undefined) {
        if (args.flags.has("json")) printEnvelope(output, "config", { ok: false, data: null, findings: [makeFinding("CONFIG_ERROR", "error", `config has no key '${key}'`, { suggestion: `keys: ${Object.keys(config).join(", ")}` })] });
        output.err(`config has no key '${key}'`);
        return 1;
      }
      if (args.flags.has("json")) printEnvelope(output, "config", { ok: true, data: { action, key, value }, findings: pipeline.warnings });
      else output.out(renderConfigValue(value, "shell"));
      return 0;
    }
    if (action === "show") {
      if (args.flags.has("json")) printEnvelope(output, "config", { ok: true, data: { action, config, injected: [...pipeline.injectedConfig].sort(), overridden: [...pipeline.overriddenConfig].sort() }, findings: pipeline.warnings });
      else output.out(stringify({ config }).trimEnd());
      return 0;
    }
    const stats = pipelineStats(pipeline);
    if (args.flags.has("json")) printEnvelope(output, "config", { ok: true, data: { action, ...stats }, findings: pipeline.warnings });
    else {
      for (const [name, value] of Object.entries(stats)) output.out(`${name.padEnd(16)} ${Array.isArray(value) ? value.join(", ") || "-" : value}`);
    }
    return 0;
  },
};
