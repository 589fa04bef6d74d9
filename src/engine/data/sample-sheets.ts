/**
 * nf-core-style sample sheets (`sample,fastq_1,fastq_2,…`, CSV or TSV): read by header name, never by
 * position, with one message per problem naming the row (its line) and column — missing files, the same
 * row twice, a second read without a first, a sample mixing single- and paired-end rows — and the reverse:
 * a sheet written from an analysed folder. Rows of one sample are its lanes or runs, as in nf-core.
 */
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { EngineError } from "../findings.js";
import { parseDelimited, type Delimiter } from "../format/delimited.js";
import type { SampleReads } from "./read-names.js";

/** Header names accepted for each column (lower case; the first is the one written). */
const COLUMN_NAMES = {
  sample: ["sample", "sample_id", "sampleid", "sample_name", "id", "name"],
  fastq_1: ["fastq_1", "fastq1", "fastq_r1", "r1", "read1", "read_1", "forward", "fq1"],
  fastq_2: ["fastq_2", "fastq2", "fastq_r2", "r2", "read2", "read_2", "reverse", "fq2"],
  strandedness: ["strandedness", "strand"],
  condition: ["condition", "group", "treatment"],
  replicate: ["replicate", "rep"],
} as const;

type Column = keyof typeof COLUMN_NAMES;

/** One problem of a sheet, at its row (line) and column. */
export interface SheetProblem {
  level: "error" | "warning";
  line: number | null;
  column: string | null;
  message: string;
  suggestion?: string;
}

/** One row of the sheet as read. */
export interface SheetRow {
  line: number;
  sample: string;
  fastq_1: string | null;
  fastq_2: string | null;
  strandedness: string | null;
  condition: string | null;
  replicate: string | null;
  /** Columns the reader does not know, by their header name. */
  extra: Record<string, string>;
}

/** A parsed sheet. */
export interface ParsedSheet {
  format: "nf-core" | "unknown";
  delimiter: "csv" | "tsv";
  detected_headers: string[];
  /** Which header each known column was read from. */
  columns: Partial<Record<Column, string>>;
  rows: SheetRow[];
  samples: { sample: string; layout: "paired" | "single" | "mixed"; rows: number; fastq_1: string[]; fastq_2: string[]; condition: string | null }[];
  samples_count: number;
  valid: boolean;
  errors: SheetProblem[];
  warnings: SheetProblem[];
}

/** Reads a sheet. With `baseDir`, relative file paths are checked against it (absolute ones as they are). */
export function parseSampleSheet(content: string, options: { baseDir?: string; fileExists?: (path: string) => boolean } = {}): ParsedSheet {
  const firstLine = content.replace(/^\ufeff/, "").split(/\r?\n/).find((line) => line.trim() !== "" && !line.trim().startsWith("#")) ?? "";
  const delimiter: Delimiter = firstLine.includes("\t") ? "\t" : ",";
  const errors: SheetProblem[] = [];
  const warnings: SheetProblem[] = [];
  let table;
  try {
    table = parseDelimited(content, delimiter, "samplesheet");
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    const at = error.finding.line ?? null;
    return empty(delimiter, [], [{ level: "error", line: at, column: null, message: error.finding.message, suggestion: error.finding.suggestion ?? undefined }]);
  }
  if (table.length === 0) return empty(delimiter, [], [{ level: "error", line: null, column: null, message: "the sheet is empty", suggestion: "the first line names the columns: sample,fastq_1,fastq_2" }]);
  const [header, ...body] = table;
  const headers = header!.cells;
  const columns: Partial<Record<Column, string>> = {};
  const indexOf: Partial<Record<Column, number>> = {};
  headers.forEach((name, index) => {
    const lower = name.trim().toLowerCase();
    for (const [column, names] of Object.entries(COLUMN_NAMES) as [Column, readonly string[]][]) {
      if (indexOf[column] === undefined && names.includes(lower)) {
        indexOf[column] = index;
        columns[column] = name;
      }
    }
  });
  if (indexOf.sample === undefined || indexOf.fastq_1 === undefined) {
    const missing = [indexOf.sample === undefined ? "sample" : undefined, indexOf.fastq_1 === undefined ? "fastq_1" : undefined].filter(Boolean).join(" and ");
    return empty(delimiter, headers, [{ level: "error", line: header!.line, column: null, message: `the header has no ${missing} column (it has: ${headers.join(", ")})`, suggestion: "name the columns sample, fastq_1 and (for paired-end) fastq_2, as nf-core pipelines do" }]);
  }
  const known = new Set(Object.values(indexOf));
  const exists = options.fileExists ?? ((path: string) => existsSync(path));
  const rows: SheetRow[] = body.map(({ cells, line }) => {
    const cell = (column: Column) => {
      const index = indexOf[column];
      const value = index === undefined ? "" : (cells[index] ?? "").trim();
      return value === "" ? null : value;
    };
    const extra: Record<string, string> = {};
    headers.forEach((name, index) => {
      if (!known.has(index) && cells[index]) extra[name] = cells[index]!;
    });
    return { line, sample: cell("sample") ?? "", fastq_1: cell("fastq_1"), fastq_2: cell("fastq_2"), strandedness: cell("strandedness"), condition: cell("condition"), replicate: cell("replicate"), extra };
  });

  const seen = new Map<string, number>();
  for (const row of rows) {
    const problem = (column: string | null, message: string, suggestion?: string) => errors.push({ level: "error", line: row.line, column, message: `line ${row.line}: ${message}`, suggestion });
    if (!row.sample) problem(columns.sample!, "the sample name is empty", "give every row a sample name");
    else if (/\s/.test(row.sample)) problem(columns.sample!, `sample '${row.sample}' contains spaces`, `use '${row.sample.replace(/\s+/g, "_")}'`);
    if (!row.fastq_1 && row.fastq_2) problem(columns.fastq_1!, `${row.fastq_2} is a second read without a first read`, `fill ${columns.fastq_1} with the R1 file of ${row.sample || "this sample"}`);
    else if (!row.fastq_1) problem(columns.fastq_1!, "no read file", `give the FASTQ file in ${columns.fastq_1}`);
    for (const column of ["fastq_1", "fastq_2"] as const) {
      const path = row[column];
      if (!path) continue;
      if (!/\.(fastq|fq)(\.gz)?$/i.test(path)) warnings.push({ level: "warning", line: row.line, column: columns[column] ?? column, message: `line ${row.line}: ${path} is not named like a FASTQ file (.fastq.gz, .fq.gz)` });
      if (options.baseDir !== undefined || options.fileExists) {
        const full = isAbsolute(path) || !options.baseDir ? path : join(options.baseDir, path);
        if (!exists(full)) problem(columns[column] ?? column, `${path} does not exist`, "check the path (relative paths are read from the sheet's folder)");
      }
    }
    if (row.fastq_1 && row.fastq_1 === row.fastq_2) problem(columns.fastq_2 ?? "fastq_2", "the first and second read are the same file");
    const key = `${row.sample}\u0000${row.fastq_1 ?? ""}\u0000${row.fastq_2 ?? ""}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) problem(columns.sample!, `the same row as line ${earlier} (sample ${row.sample})`, "remove the duplicate row");
    else seen.set(key, row.line);
  }
  const bySample = new Map<string, SheetRow[]>();
  for (const row of rows) if (row.sample) bySample.set(row.sample, [...(bySample.get(row.sample) ?? []), row]);
  const samples = [...bySample].map(([sample, list]) => {
    const paired = list.filter((row) => row.fastq_2).length;
    const layout: "paired" | "single" | "mixed" = paired === list.length ? "paired" : paired === 0 ? "single" : "mixed";
    if (layout === "mixed") errors.push({ level: "error", line: list[0]!.line, column: columns.fastq_2 ?? "fastq_2", message: `sample ${sample} mixes single-end and paired-end rows (lines ${list.map((row) => row.line).join(", ")})`, suggestion: "give every row of a sample both reads, or none a second read" });
    const conditions = [...new Set(list.map((row) => row.condition).filter(Boolean))];
    if (conditions.length > 1) warnings.push({ level: "warning", line: list[0]!.line, column: columns.condition ?? "condition", message: `sample ${sample} has different conditions on its rows: ${conditions.join(", ")}` });
    return { sample, layout, rows: list.length, fastq_1: list.map((row) => row.fastq_1).filter((path): path is string => path !== null), fastq_2: list.map((row) => row.fastq_2).filter((path): path is string => path !== null), condition: conditions[0] ?? null };
  });
  const layouts = new Set(samples.map((sample) => sample.layout));
  if (layouts.has("paired") && layouts.has("single")) warnings.push({ level: "warning", line: null, column: null, message: "some samples are paired-end and others single-end; most pipelines expect one layout" });
  if (rows.length === 0) errors.push({ level: "error", line: null, column: null, message: "the sheet has a header but no rows" });
  return { format: "nf-core", delimiter: delimiter === "\t" ? "tsv" : "csv", detected_headers: headers, columns, rows, samples, samples_count: samples.length, valid: errors.length === 0, errors, warnings };
}

function empty(delimiter: Delimiter, headers: string[], errors: SheetProblem[]): ParsedSheet {
  return { format: "unknown", delimiter: delimiter === "\t" ? "tsv" : "csv", detected_headers: headers, columns: {}, rows: [], samples: [], samples_count: 0, valid: false, errors, warnings: [] };
}

/** A sheet (`sample,fastq_1,fastq_2`, one row per lane) from analysed samples; quoted where a cell needs it. */
export function writeSampleSheet(samples: SampleReads[], options: { delimiter?: "csv" | "tsv" } = {}): string {
  const separator = options.delimiter === "tsv" ? "\t" : ",";
  const quote = (cell: string) => (cell.includes(separator) || cell.includes('"') || cell.includes("\n") ? `"${cell.replace(/"/g, '""')}"` : cell);
  const lines = [["sample", "fastq_1", "fastq_2"].join(separator)];
  for (const sample of samples) {
    if (sample.layout === "mixed") continue;
    sample.r1.forEach((first, index) => {
      const second = sample.layout === "paired" ? (sample.r2[index] ?? "") : "";
      lines.push([sample.sample, first, second].map(quote).join(separator));
    });
  }
  return `${lines.join("\n")}\n`;
}
