/**
 * `strand data analyze PATH… [--max-depth N] [--max-files N] [--json]`: what the files are (formats by
 * content, FASTQ read length and quality encoding, pairs, lanes and samples) and which template fits;
 * `strand data samplesheet PATH… [-o sheet.csv] [--tsv]`: a sample sheet written from the same analysis.
 */
import { existsSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { analyzeData, DEFAULT_SCAN_LIMITS, type DataAnalysis } from "../../engine/data/analyze-data.js";
import { writeSampleSheet } from "../../engine/data/sample-sheets.js";
import { EngineError } from "../../engine/findings.js";
import { optionValue, UsageError, type OptionSpec, type ParsedArgs } from "../args.js";
import { printEnvelope } from "../json-envelope.js";
import { displayPath, paint, type Output } from "../print.js";
import type { Command } from "./command.js";

const SUBCOMMANDS = ["analyze", "samplesheet"];

const DATA_OPTIONS: OptionSpec[] = [
  { name: "max-depth", value: true, placeholder: "N", description: `folder levels below each given folder (default ${DEFAULT_SCAN_LIMITS.maxDepth})` },
  { name: "max-files", value: true, placeholder: "N", description: `files looked at in all (default ${DEFAULT_SCAN_LIMITS.maxFiles})` },
  { name: "output", short: "o", value: true, placeholder: "FILE", description: "samplesheet: write the sheet to FILE instead of stdout" },
  { name: "tsv", description: "samplesheet: tab-separated instead of comma-separated" },
  { name: "force", description: "samplesheet: overwrite FILE when it exists" },
];

function count(args: ParsedArgs, name: string): number | undefined {
  const value = optionValue(args, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} takes a whole number, got '${value}'`, `strand data analyze reads/ --${name} 2`);
  return Number(value);
}

/** Analyses the positional paths (after the subcommand), shown as the user would type them. */
function analyse(args: ParsedArgs, output: Output, subcommand: string): DataAnalysis {
  const paths = args.positionals.slice(1);
  if (paths.length === 0) throw new UsageError(`data ${subcommand} needs at least one PATH`, `strand data ${subcommand} reads/`);
  const absolute = paths.map((path) => resolve(output.cwd, path));
  const missing = absolute.find((path) => !existsSync(path));
  if (missing) throw new EngineError("IO_ERROR", `${displayPath(output, missing)} does not exist`, { suggestion: "name a file or folder of sequencing data" });
  const limits = { maxDepth: count(args, "max-depth") ?? DEFAULT_SCAN_LIMITS.maxDepth, maxFiles: count(args, "max-files") ?? DEFAULT_SCAN_LIMITS.maxFiles };
  return analyzeData(absolute, { limits, display: (path) => displayPath(output, path) });
}

/** Prints rows as aligned columns under a bold header. */
function printColumns(output: Output, header: string[], rows: string[][]): void {
  const widths = header.map((title, index) => Math.max(title.length, ...rows.map((row) => row[index]!.length)));
  const line = (cells: string[]) => cells.map((cell, index) => (index === cells.length - 1 ? cell : cell.padEnd(widths[index]!))).join("  ").trimEnd();
  output.out(paint(output, "bold", line(header)));
  for (const row of rows) output.out(line(row));
}

function printAnalysis(output: Output, analysis: DataAnalysis): void {
  const dash = "-";
  printColumns(
    output,
    ["FILE", "FORMAT", "SAMPLE", "READ", "LANE", "PAIRED WITH", "READ LENGTH", "QUALITY"],
    analysis.files.map((file) => {
      const length = file.fastq?.read_length;
      return [
        file.path,
        `${file.format}${file.compression === "none" ? "" : ` (${file.compression})`}${file.detected_by === "name" ? " ?" : ""}`,
        file.sample_name ?? dash,
        file.read ? `R${file.read}` : dash,
        file.lane === null ? dash : String(file.lane),
        file.paired_with ? file.paired_with.split("/").pop()! : dash,
        length ? (length.min === length.max ? String(length.max) : `${length.min}-${length.max}`) : dash,
        file.fastq ? file.fastq.quality_encoding : dash,
      ];
    }),
  );
  const { summary } = analysis;
  output.out("");
  output.out(`${summary.files} file(s), ${summary.total_size} bytes; formats: ${summary.formats_detected.join(", ") || "none"}${summary.layout ? `; reads: ${summary.layout}` : ""}${analysis.truncated ? " (scan stopped at its limits)" : ""}`);
  if (analysis.samples.length > 0) {
    output.out("");
    printColumns(
      output,
      ["SAMPLE", "LAYOUT", "LANES", "FILES"],
      analysis.samples.map((sample) => [sample.sample, sample.layout, sample.lanes.join(",") || dash, String(sample.r1.length + sample.r2.length + sample.single.length)]),
    );
  }
  if (analysis.suggestions.length > 0) {
    output.out("");
    output.out(paint(output, "bold", "Suggested templates:"));
    for (const suggestion of analysis.suggestions) output.out(`  ${paint(output, "cyan", suggestion.template)} (${suggestion.score}) ${suggestion.reason}`);
    output.out(`Start from one with \`strand template ${analysis.suggestions[0]!.template} -o main.oxoflow\`.`);
  }
  for (const warning of [...analysis.files.flatMap((file) => file.warnings), ...analysis.warnings]) output.err(`${paint(output, "yellow", "warning")} ${warning}`);
}

function sampleSheet(args: ParsedArgs, output: Output): number {
  const analysis = analyse(args, output, "samplesheet");
  const samples = analysis.samples.filter((sample) => sample.layout !== "mixed");
  const left = analysis.samples.filter((sample) => sample.layout === "mixed").map((sample) => `sample ${sample.sample} mixes paired and single-end files and was left out`);
  if (samples.length === 0) throw new EngineError("DATA_ERROR", "no FASTQ samples found", { suggestion: "name the folder that holds the FASTQ files (strand data analyze shows what was found)" });
  const content = writeSampleSheet(samples, { delimiter: args.flags.has("tsv") ? "tsv" : "csv" });
  const target = optionValue(args, "output");
  let written: string | null = null;
  if (target !== undefined) {
    written = resolve(output.cwd, target);
    if (existsSync(written) && !args.flags.has("force")) throw new EngineError("IO_ERROR", `${displayPath(output, written)} already exists`, { suggestion: "choose another file, or add --force to overwrite it" });
    writeFileSync(written, content);
  }
  const warnings = [...analysis.warnings, ...left];
  if (args.flags.has("json")) {
    printEnvelope(output, "data samplesheet", { ok: true, data: { content, samples_count: samples.length, warnings, written: written ? displayPath(output, written) : null } });
    return 0;
  }
  if (written) output.err(`wrote ${displayPath(output, written)} (${samples.length} sample(s))`);
  else output.out(content.trimEnd());
  for (const warning of warnings) output.err(`${paint(output, "yellow", "warning")} ${warning}`);
  return 0;
}

export const dataCommand: Command = {
  usage: "strand data analyze PATH… [--max-depth N] [--max-files N] [--json] | strand data samplesheet PATH… [-o FILE] [--tsv]",
  options: DATA_OPTIONS,
  async run(args, output) {
    const unexpected = [...args.configFlags.map((flag) => `--${flag.name}`), ...Object.keys(args.assignments).map((key) => `${key}=…`)];
    if (unexpected.length > 0) throw new UsageError(`unknown option ${unexpected[0]}`, "run `strand data --help` to see the options");
    const subcommand = args.positionals[0];
    if (subcommand === "samplesheet") return sampleSheet(args, output);
    if (subcommand !== "analyze") throw new UsageError(subcommand === undefined ? "data needs a subcommand" : `unknown data subcommand '${subcommand}'`, `use one of ${SUBCOMMANDS.join(", ")}: strand data analyze reads/`);
    const analysis = analyse(args, output, "analyze");
    if (args.flags.has("json")) printEnvelope(output, "data analyze", { ok: true, data: analysis });
    else printAnalysis(output, analysis);
    return 0;
  },
};
