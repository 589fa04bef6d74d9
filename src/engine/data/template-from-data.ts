/**
 * A built-in template filled from analysed data: its `[[sample_groups]]` list becomes the samples found, and
 * its read inputs (`raw/{sample}_R1.fastq.gz` and `_R2`, or any `{sample}` FASTQ input of the template) point
 * at the data. When every sample's files fit one name pattern the inputs are rewritten to it; when they do not
 * (lanes split over several files, names without a common shape) a `stage_reads` rule is added that
 * concatenates each sample's files into the paths the template reads. Comments and layout of the template
 * are kept (toml-edit).
 */
import type { DataAnalysis } from "./analyze-data.js";
import type { SampleReads } from "./read-names.js";
import { getTemplate } from "../tools/templates.js";
import { renderValue, TomlText } from "../format/toml-edit.js";
import { EngineError } from "../findings.js";
import { shellWord } from "../expand/shell-quote.js";

/** A template with the data's samples and reads written in. */
export interface FilledTemplate {
  template: string;
  title: string;
  toml_content: string;
  /** The sample names written into the first `[[sample_groups]]`. */
  samples: string[];
  /** How the reads reach the template: inputs rewritten to a pattern, a staging rule, or neither. */
  reads: { how: "pattern"; r1: string; r2: string | null } | { how: "staged"; rule: string } | { how: "unchanged"; reason: string };
  /** What the user should know: samples left out, a layout the template does not expect. */
  notes: string[];
}

/** How a path the analysis shows becomes a path the run reads (relative paths are the caller's own files). */
export type RunPath = (shown: string) => string;

const READ_FILE = /\{sample\}[^"/]*\.f(?:ast)?q(?:\.gz)?$/i;

/** The template `templateId` with the samples and reads of `analysis` written in. */
export function templateFromData(templateId: string, analysis: Pick<DataAnalysis, "samples">, runPath: RunPath = (path) => path): FilledTemplate {
  const template = getTemplate(templateId);
  if (!template) throw new EngineError("DATA_ERROR", `there is no template '${templateId}'`, { suggestion: "GET /api/templates lists them" });
  const usable = analysis.samples.filter((sample) => sample.layout !== "mixed" && sample.r1.length > 0);
  const notes = analysis.samples.filter((sample) => !usable.includes(sample)).map((sample) => `sample ${sample.sample} was left out: ${sample.layout === "mixed" ? "it mixes paired and single-end files" : "it has no R1 file"}`);
  if (usable.length === 0) {
    throw new EngineError("DATA_ERROR", "no FASTQ samples were found to fill the template with", { suggestion: "choose the folder that holds the FASTQ files (the analysis lists what was found)" });
  }
  const reads = planReads(new TomlText(template.toml_content), usable, runPath, notes);
  // A pattern is written where the template writes its read paths (basic strings, as the templates do).
  const text = reads.how === "pattern" ? reads.replace.reduce((current, [from, to]) => current.split(renderValue(from)).join(renderValue(to)), template.toml_content) : template.toml_content;
  const edited = new TomlText(text);
  const names = usable.map((sample) => sample.sample);
  const groups = edited.valueAt(["sample_groups"]);
  if (Array.isArray(groups) && groups.length > 0) edited.set(["sample_groups", 0, "samples"], names);
  else edited.appendArrayTable("sample_groups", { name: "samples", samples: names });
  let shown: FilledTemplate["reads"];
  if (reads.how === "staged") {
    const rule = uniqueRuleName(edited, "stage_reads");
    edited.appendArrayTable("rules", { name: rule, ...reads.table });
    shown = { how: "staged", rule };
  } else shown = reads.how === "pattern" ? { how: "pattern", r1: reads.r1, r2: reads.r2 } : reads;
  const layout = new Set(usable.map((sample) => sample.layout));
  const header = `# Filled from your data: ${names.length} ${[...layout].join(" and ")}-end sample(s)${shown.how === "pattern" ? `, reads at ${shown.r1}` : shown.how === "staged" ? `, reads gathered by rule ${shown.rule}` : ""}.\n`;
  return { template: template.id, title: template.title, toml_content: header + edited.text, samples: names, reads: shown, notes };
}

/** The template's read inputs: the `{sample}` FASTQ paths its rules read and no rule writes. */
function templateReads(document: Record<string, unknown>): { r1: string | undefined; r2: string | undefined } {
  const rules = Array.isArray(document.rules) ? (document.rules as Record<string, unknown>[]) : [];
  const strings = (value: unknown): string[] => (typeof value === "string" ? [value] : Array.isArray(value) ? value.flatMap(strings) : value && typeof value === "object" ? Object.values(value).flatMap(strings) : []);
  const written = new Set(rules.flatMap((rule) => strings(rule.output)));
  const read = [...new Set(rules.flatMap((rule) => strings(rule.input)))].filter((path) => READ_FILE.test(path) && !written.has(path));
  const r2 = read.find((path) => /[._]R?2(\.f(ast)?q)/i.test(path));
  const r1 = read.find((path) => path !== r2 && /[._]R?1(\.f(ast)?q)/i.test(path)) ?? read.find((path) => path !== r2);
  return { r1, r2 };
}

type ReadPlan =
  | { how: "pattern"; r1: string; r2: string | null; replace: [string, string][] }
  | { how: "staged"; table: { description: string; output: Record<string, string>; log: string; shell: string } }
  | { how: "unchanged"; reason: string };

function planReads(template: TomlText, samples: SampleReads[], runPath: RunPath, notes: string[]): ReadPlan {
  const wanted = templateReads(template.document);
  if (!wanted.r1) return { how: "unchanged", reason: "the template reads no per-sample FASTQ files" };
  const paired = samples.every((sample) => sample.layout === "paired");
  const single = samples.every((sample) => sample.layout === "single");
  if (wanted.r2 && !paired) {
    notes.push(`the template reads paired-end files (${wanted.r1} and ${wanted.r2}) but ${single ? "the samples are single-end" : "some samples are single-end"}: choose a single-end pipeline or edit its inputs`);
    return { how: "unchanged", reason: "the samples are not all paired-end" };
  }
  if (!wanted.r2 && paired) notes.push(`the template reads one file per sample (${wanted.r1}): only the R1 files are used`);
  const r1 = commonPattern(samples.map((sample) => ({ sample: sample.sample, files: sample.r1.map(runPath) })));
  const r2 = wanted.r2 ? commonPattern(samples.map((sample) => ({ sample: sample.sample, files: sample.r2.map(runPath) }))) : undefined;
  if (r1 && (!wanted.r2 || r2)) {
    const replace: [string, string][] = [[wanted.r1, r1]];
    if (wanted.r2 && r2) replace.push([wanted.r2, r2]);
    return { how: "pattern", r1, r2: r2 ?? null, replace };
  }
  // No single pattern fits: a rule that concatenates each sample's files (its lanes, in lane order) into the
  // paths the template reads. Concatenated gzip files are one valid gzip file.
  const branch = (sample: SampleReads) => {
    const part = (files: string[], output: string) => `cat ${files.map((file) => shellWord(runPath(file))).join(" ")} > {output.${output}}`;
    const steps = [part(sample.r1, "r1"), ...(wanted.r2 ? [part(sample.r2, "r2")] : [])];
    return `  ${shellWord(sample.sample)}) ${steps.join(" && ")} ;;`;
  };
  const shell = ["exec 2> {log}", 'case "{sample}" in', ...samples.map(branch), '  *) echo "no reads are listed for sample {sample}" >&2; exit 1 ;;', "esac"].join("\n");
  notes.push(`the read files do not share one name pattern${samples.some((sample) => sample.lanes.length > 1) ? " (lanes are split over several files)" : ""}: a rule gathers them into ${wanted.r1}${wanted.r2 ? ` and ${wanted.r2}` : ""}`);
  return {
    how: "staged",
    table: {
      description: "Gather each sample's read files (all its lanes) into the paths the pipeline reads; written from the data analysis",
      output: wanted.r2 ? { r1: wanted.r1, r2: wanted.r2 } : { r1: wanted.r1 },
      log: "logs/stage_reads/{sample}.log",
      shell,
    },
  };
}

/** `<prefix>{sample}<suffix>` when every sample has one file that is exactly that, else undefined. */
function commonPattern(entries: { sample: string; files: string[] }[]): string | undefined {
  let pattern: string | undefined;
  for (const { sample, files } of entries) {
    if (files.length !== 1) return undefined;
    const file = files[0]!;
    const nameStart = file.lastIndexOf("/") + 1;
    const at = file.indexOf(sample, nameStart);
    if (at < 0) return undefined;
    const candidate = `${file.slice(0, at)}{sample}${file.slice(at + sample.length)}`;
    if (pattern === undefined) pattern = candidate;
    else if (candidate !== pattern) return undefined;
  }
  // A pattern that would read another sample's file for some sample (a name that is a prefix of another) is refused.
  if (pattern && new Set(entries.map(({ sample }) => pattern!.replace("{sample}", sample))).size !== entries.length) return undefined;
  return pattern && !/["\\\n]/.test(pattern) ? pattern : undefined;
}

function uniqueRuleName(edited: TomlText, base: string): string {
  const rules = edited.valueAt(["rules"]);
  const names = new Set(Array.isArray(rules) ? rules.map((rule) => (rule as { name?: unknown }).name) : []);
  let name = base;
  for (let n = 2; names.has(name); n++) name = `${base}_${n}`;
  return name;
}
