/**
 * Analysis of input data: walks the given files and folders (bounded depth and count, never through a
 * link), decides each file's format from its content, samples FASTQ records (read length, quality
 * encoding, the read number in the headers), pairs reads by name and merges lanes per sample, and suggests
 * a built-in template with a score and a reason. Used by `strand data analyze` and `POST /api/data/analyze`.
 */
import { closeSync, lstatSync, openSync, readdirSync, readSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { listTemplates } from "../tools/templates.js";
import { sampleFastq, type FastqSample } from "./fastq-records.js";
import { SNIFF_BYTES, sniffFormat, type Compression, type DataFormat } from "./file-formats.js";
import { pairReads, parseReadName, type SampleReads } from "./read-names.js";

/** How far a scan goes. */
export interface ScanLimits {
  /** Folder levels below each given folder (default 3). */
  maxDepth: number;
  /** Files looked at in all (default 2000). */
  maxFiles: number;
}

export const DEFAULT_SCAN_LIMITS: ScanLimits = { maxDepth: 3, maxFiles: 2000 };

/** One analysed file. */
export interface AnalysedFile {
  path: string;
  size: number;
  format: DataFormat;
  compression: Compression;
  format_confidence: number;
  detected_by: "content" | "name";
  name_suggests: DataFormat | null;
  sample_name: string | null;
  lane: number | null;
  read: 1 | 2 | null;
  paired_with: string | null;
  fastq: FastqSample | null;
  warnings: string[];
}

/** A suggested template. */
export interface TemplateSuggestion {
  template: string;
  title: string;
  score: number;
  reason: string;
}

/** The whole analysis. */
export interface DataAnalysis {
  files: AnalysedFile[];
  samples: SampleReads[];
  summary: {
    files: number;
    total_size: number;
    formats_detected: DataFormat[];
    paired_end_detected: boolean;
    layout: "paired" | "single" | "mixed" | null;
    read_length: { min: number; max: number; mean: number } | null;
    quality_encoding: "phred33" | "phred64" | "mixed" | "unknown" | null;
    strand_specific: null;
  };
  suggested_workflow: TemplateSuggestion | null;
  suggestions: TemplateSuggestion[];
  warnings: string[];
  /** True when the limits stopped the walk before every file was seen. */
  truncated: boolean;
}

/** Analyses files and folders. `display` turns an absolute path into the one shown (default: as given). */
export function analyzeData(paths: string[], options: { limits?: Partial<ScanLimits>; display?: (path: string) => string } = {}): DataAnalysis {
  const limits = { ...DEFAULT_SCAN_LIMITS, ...options.limits };
  const display = options.display ?? ((path: string) => path);
  const warnings: string[] = [];
  const found: string[] = [];
  let truncated = false;
  const visit = (path: string, depth: number) => {
    if (found.length >= limits.maxFiles) {
      truncated = true;
      return;
    }
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      warnings.push(`${display(path)} does not exist`);
      return;
    }
    if (stat.isSymbolicLink()) {
      warnings.push(`${display(path)} is a symbolic link and was not followed`);
      return;
    }
    if (stat.isFile()) {
      found.push(path);
      return;
    }
    if (!stat.isDirectory()) return;
    if (depth > limits.maxDepth) {
      truncated = true;
      return;
    }
    let entries: string[];
    try {
      entries = readdirSync(path).sort();
    } catch {
      warnings.push(`${display(path)} cannot be read`);
      return;
    }
    for (const entry of entries) {
      if (entry.startsWith(".")) continue;
      visit(join(path, entry), depth + 1);
    }
  };
  for (const path of paths) visit(path, 0);
  if (truncated) warnings.push(`the scan stopped at ${limits.maxFiles} files or ${limits.maxDepth} folder levels; name a narrower folder to see the rest`);

  const files = found.map((path) => analyseFile(path, display));
  // Reads: FASTQ by content, or by name when the content cannot be read (an empty file is no sample).
  const reads = files.filter((file) => file.format === "fastq" && file.size > 0);
  const { pairedWith, samples } = pairReads(reads.map((file) => ({ path: file.path, name: { ...parseReadName(basename(file.path)), read: file.read } })));
  for (const file of files) file.paired_with = pairedWith.get(file.path) ?? null;
  const problems = samples.flatMap((sample) => sample.problems);
  warnings.push(...problems);

  const fastqs = files.filter((file) => file.fastq && file.fastq.records > 0);
  const lengths = fastqs.map((file) => file.fastq!.read_length!).filter(Boolean);
  const encodings = new Set(fastqs.map((file) => file.fastq!.quality_encoding));
  const layouts = new Set(samples.map((sample) => sample.layout));
  const analysis: DataAnalysis = {
    files,
    samples,
    summary: {
      files: files.length,
      total_size: files.reduce((sum, file) => sum + file.size, 0),
      formats_detected: [...new Set(files.map((file) => file.format))].sort(),
      paired_end_detected: samples.some((sample) => sample.layout === "paired"),
      layout: samples.length === 0 ? null : layouts.size === 1 ? [...layouts][0]! : "mixed",
      read_length: lengths.length === 0 ? null : { min: Math.min(...lengths.map((length) => length.min)), max: Math.max(...lengths.map((length) => length.max)), mean: Math.round((lengths.reduce((sum, length) => sum + length.mean, 0) / lengths.length) * 10) / 10 },
      quality_encoding: fastqs.length === 0 ? null : encodings.size === 1 ? [...encodings][0]! : "mixed",
      strand_specific: null,
    },
    suggested_workflow: null,
    suggestions: [],
    warnings,
    truncated,
  };
  analysis.suggestions = suggestTemplates(analysis);
  analysis.suggested_workflow = analysis.suggestions[0] ?? null;
  return analysis;
}

function analyseFile(path: string, display: (path: string) => string): AnalysedFile {
  const shown = display(path);
  const { head, size } = readHead(path);
  const sniffed = sniffFormat(head, basename(path));
  const name = sniffed.format === "fastq" ? parseReadName(basename(path)) : null;
  const warnings: string[] = [];
  if (sniffed.mismatch) warnings.push(`named like ${sniffed.name_suggests} but its content is ${sniffed.format}`);
  if (sniffed.name_suggests === null && sniffed.by === "content" && sniffed.format !== "text") warnings.push(`its name does not say it is ${sniffed.format}`);
  if (size === 0) warnings.push("the file is empty");
  else if (sniffed.by === "name") warnings.push(sniffed.format === "unknown" ? "the content matches no known format" : `the content matches no known format; going by its name (${sniffed.format})`);
  const fastq = sniffed.format === "fastq" && sniffed.text !== null ? sampleFastq(sniffed.text) : null;
  let read = name?.read ?? null;
  if (fastq?.header_read && read !== null && fastq.header_read !== read) warnings.push(`the name says read ${read} but the read headers say read ${fastq.header_read}; using the headers`);
  if (fastq?.header_read) read = fastq.header_read;
  if (fastq?.quality_encoding === "phred64") warnings.push("qualities are Phred+64 (Illumina 1.3–1.7): most tools need --phred64 or a conversion");
  return {
    path: shown,
    size,
    format: sniffed.format,
    compression: sniffed.compression,
    format_confidence: sniffed.confidence,
    detected_by: sniffed.by,
    name_suggests: sniffed.name_suggests,
    sample_name: name?.sample ?? null,
    lane: name?.lane ?? null,
    read,
    paired_with: null,
    fastq,
    warnings: warnings.map((warning) => `${shown}: ${warning}`),
  };
}

function readHead(path: string): { head: Uint8Array; size: number } {
  const fd = openSync(path, "r");
  try {
    const size = lstatSync(path).size;
    const buffer = Buffer.alloc(Math.min(SNIFF_BYTES, size));
    const read = buffer.length > 0 ? readSync(fd, buffer, 0, buffer.length, 0) : 0;
    return { head: buffer.subarray(0, read), size };
  } finally {
    closeSync(fd);
  }
}

/** Built-in templates ranked for the data, each with why. */
export function suggestTemplates(analysis: Pick<DataAnalysis, "files" | "samples" | "summary">, description = ""): TemplateSuggestion[] {
  const templates = new Map(listTemplates().map((template) => [template.id, template]));
  const formats = new Set(analysis.summary.formats_detected);
  const words = description.toLowerCase();
  const sampleNames = analysis.samples.map((sample) => sample.sample.toLowerCase()).join(" ");
  const scored: TemplateSuggestion[] = [];
  const add = (id: string, score: number, reason: string) => {
    const template = templates.get(id);
    if (template && score > 0) scored.push({ template: id, title: template.title, score: Math.round(Math.min(score, 1) * 100) / 100, reason });
  };
  const reads = formats.has("fastq");
  const rna = /rna|transcript|expression|salmon|star\b|deseq/.test(words);
  const dna = /dna|wgs|wes|exome|whole[- ]genome|variant|germline|snp|gatk/.test(words);
  const somatic = /tumou?r|somatic|cancer|normal/.test(words) || (/tumou?r/.test(sampleNames) && /normal/.test(sampleNames));
  const samples = analysis.samples.length;
  if (reads) {
    const layout = analysis.summary.layout ?? "single";
    add("rnaseq-quant", 0.45 + (rna ? 0.45 : 0) - (dna || somatic ? 0.3 : 0), `${samples} sample(s) of ${layout} FASTQ reads${rna ? " and an RNA-seq description" : ""}: quantify expression per sample`);
    add("germline-variants", 0.4 + (dna ? 0.45 : 0) - (rna ? 0.3 : 0) - (somatic ? 0.2 : 0), `${samples} sample(s) of ${layout} FASTQ reads${dna ? " and a DNA/variant description" : ""}: align and call germline variants`);
    if (somatic) add("tumor-normal", 0.9, "sample names or the description pair tumour and normal samples: somatic calling per pair");
    add("sample-fanout", 0.3, `one job per sample over ${samples} sample(s): a starting point for any per-sample step`);
  } else if (formats.has("bam") || formats.has("cram")) {
    add("germline-variants", 0.55 + (dna ? 0.3 : 0), "aligned reads (BAM/CRAM): variant calling starts from alignments");
    if (somatic) add("tumor-normal", 0.85, "aligned tumour and normal samples: somatic calling per pair");
  } else if (formats.has("vcf") || formats.has("bcf")) {
    add("conditional-branches", 0.3, "variant calls: a pipeline that filters and annotates them");
  }
  return scored.sort((a, b) => b.score - a.score || a.template.localeCompare(b.template));
}

/** Relative display of paths under a root (for answers that must not show server paths). */
export function relativeTo(root: string): (path: string) => string {
  return (path) => relative(root, path) || ".";
}
