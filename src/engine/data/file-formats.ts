/**
 * What a data file is, from its first bytes rather than its name: gzip and BGZF (block gzip, which BAM,
 * BCF and tabix-indexed files use), BAM, CRAM, BCF, BigWig and bigBed by their magic numbers, and the text
 * formats (FASTQ, FASTA, SAM, VCF, GFF, GTF, BED, count matrices) by the shape of their first lines. The
 * name is a fallback, and a name that says something else than the content is reported as a mismatch.
 */
import { constants, gunzipSync } from "node:zlib";

/** The formats told apart. */
export type DataFormat = "fastq" | "fasta" | "sam" | "bam" | "cram" | "vcf" | "bcf" | "bed" | "gff" | "gtf" | "bigwig" | "bigbed" | "count_matrix" | "csv" | "tsv" | "text" | "unknown";

/** How the bytes are wrapped. */
export type Compression = "none" | "gzip" | "bgzf";

/** What the sniffer found. */
export interface SniffedFormat {
  format: DataFormat;
  compression: Compression;
  /** 0..1: content evidence scores high, a name alone lower. */
  confidence: number;
  /** What the decision rests on. */
  by: "content" | "name";
  /** What the file name says, when it says anything. */
  name_suggests: DataFormat | null;
  /** True when the name says one format and the content another. */
  mismatch: boolean;
  /** The decompressed beginning as text, for record statistics (only for text formats). */
  text: string | null;
}

/** Bytes read from the start of a file to decide (and to sample records from). */
export const SNIFF_BYTES = 256 * 1024;

const NAME_RULES: [RegExp, DataFormat][] = [
  [/\.(fastq|fq)(\.gz|\.bz2)?$/i, "fastq"],
  [/\.(fasta|fa|fna|ffn|faa|fas)(\.gz)?$/i, "fasta"],
  [/\.sam$/i, "sam"],
  [/\.bam$/i, "bam"],
  [/\.cram$/i, "cram"],
  [/\.vcf(\.gz|\.bgz)?$/i, "vcf"],
  [/\.bcf$/i, "bcf"],
  [/\.(bed|narrowpeak|broadpeak)(\.gz)?$/i, "bed"],
  [/\.gtf(\.gz)?$/i, "gtf"],
  [/\.(gff|gff3)(\.gz)?$/i, "gff"],
  [/\.(bw|bigwig)$/i, "bigwig"],
  [/\.(bb|bigbed)$/i, "bigbed"],
  [/\.csv(\.gz)?$/i, "csv"],
  [/\.(tsv|tab)(\.gz)?$/i, "tsv"],
  [/\.txt(\.gz)?$/i, "text"],
];

/** The format a file name suggests, or null. */
export function formatFromName(name: string): DataFormat | null {
  for (const [pattern, format] of NAME_RULES) if (pattern.test(name)) return format;
  return null;
}

/** Decides the format of a file from its first bytes (`head`) and its name. */
export function sniffFormat(head: Uint8Array, name: string): SniffedFormat {
  const suggested = formatFromName(name);
  const result = (format: DataFormat, compression: Compression, confidence: number, text: string | null = null): SniffedFormat => {
    const byContent = format !== "unknown";
    const finalFormat = byContent ? format : (suggested ?? "unknown");
    return {
      format: finalFormat,
      compression,
      confidence: byContent ? confidence : suggested ? 0.3 : 0,
      by: byContent ? "content" : "name",
      name_suggests: suggested,
      mismatch: byContent && suggested !== null && !compatible(suggested, format),
      text,
    };
  };
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (bytes.length === 0) return result("unknown", "none", 0);
  if (startsWith(bytes, [0x43, 0x52, 0x41, 0x4d])) return result("cram", "none", 0.99); // "CRAM"
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0x888ffc26) return result("bigwig", "none", 0.99);
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0x8789f2eb) return result("bigbed", "none", 0.99);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const compression: Compression = isBgzf(bytes) ? "bgzf" : "gzip";
    const inner = inflateBeginning(bytes);
    if (!inner) return result("unknown", compression, 0);
    if (startsWith(inner, [0x42, 0x41, 0x4d, 0x01])) return result("bam", compression, 0.99); // "BAM\1"
    if (startsWith(inner, [0x42, 0x43, 0x46, 0x02])) return result("bcf", compression, 0.99); // "BCF\2"
    return textFormat(inner, compression, result);
  }
  return textFormat(bytes, "none", result);
}

type Make = (format: DataFormat, compression: Compression, confidence: number, text?: string | null) => SniffedFormat;

function textFormat(bytes: Buffer, compression: Compression, result: Make): SniffedFormat {
  // Binary content (a NUL in the first KiB) is nothing we read as text.
  if (bytes.subarray(0, 1024).includes(0)) return result("unknown", compression, 0);
  const text = bytes.toString("utf8");
  const lines = text.split(/\r?\n/);
  // The last line may be cut by the sniff window.
  if (lines.length > 1) lines.pop();
  const content = lines.filter((line) => line.trim() !== "");
  if (content.length === 0) return result("unknown", compression, 0);
  if (looksLikeFastq(lines)) return result("fastq", compression, 0.98, text);
  const first = content[0]!;
  if (first.startsWith(">") && content.slice(1, 20).every((line) => line.startsWith(">") || /^[A-Za-z*\-.]+$/.test(line.trim()))) return result("fasta", compression, 0.95, text);
  if (first.startsWith("##fileformat=VCF")) return result("vcf", compression, 0.99, text);
  if (/^@(HD|SQ|RG|PG|CO)\t/.test(first)) return result("sam", compression, 0.97, text);
  if (first.startsWith("##gff-version")) return result("gff", compression, 0.97, text);
  const data = content.filter((line) => !line.startsWith("#") && !line.startsWith("track ") && !line.startsWith("browser "));
  const rows = data.slice(0, 50).map((line) => line.split("\t"));
  if (rows.length > 0 && rows.every((row) => row.length >= 11 && /^\d+$/.test(row[1]!) && /^\d+$/.test(row[3]!))) return result("sam", compression, 0.9, text);
  if (rows.length > 0 && rows.every((row) => row.length === 9 && /^\d+$/.test(row[3]!) && /^\d+$/.test(row[4]!) && /^[+\-.?]$/.test(row[6]!))) {
    return /(^|;)\s*gene_id "[^"]*"/.test(rows[0]![8]!) ? result("gtf", compression, 0.95, text) : result("gff", compression, 0.9, text);
  }
  if (rows.length > 0 && rows.every((row) => row.length >= 3 && /^\d+$/.test(row[1]!) && /^\d+$/.test(row[2]!) && Number(row[1]) <= Number(row[2]))) return result("bed", compression, 0.9, text);
  const matrix = countMatrix(data);
  if (matrix) return result(matrix === "count_matrix" ? "count_matrix" : matrix, compression, matrix === "count_matrix" ? 0.85 : 0.7, text);
  return result("text", compression, 0.5, text);
}

/** FASTQ: records of four lines, `@name`, sequence, `+`, qualities as long as the sequence. */
function looksLikeFastq(lines: string[]): boolean {
  if (lines.length < 4) return false;
  const records = Math.min(Math.floor(lines.length / 4), 25);
  for (let record = 0; record < records; record++) {
    const [name, sequence, plus, quality] = lines.slice(record * 4, record * 4 + 4);
    if (!name?.startsWith("@") || !plus?.startsWith("+") || sequence === undefined || quality === undefined) return false;
    if (!/^[A-Za-z.\-*]*$/.test(sequence) || sequence.length !== quality.length) return false;
  }
  return true;
}

/** A table with a header and numeric columns after the first: a count matrix; otherwise plain CSV/TSV. */
function countMatrix(lines: string[]): "count_matrix" | "csv" | "tsv" | null {
  if (lines.length < 2) return null;
  for (const separator of ["\t", ","] as const) {
    const rows = lines.slice(0, 50).map((line) => line.split(separator));
    const width = rows[0]!.length;
    if (width < 2 || !rows.every((row) => row.length === width || (row.length === width + 1 && rows[0]!.length === width))) continue;
    const body = rows.slice(1);
    const numeric = body.every((row) => row.slice(1).every((cell) => /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(cell.trim())));
    if (numeric && width >= 2 && body.length >= 1) return "count_matrix";
    return separator === "\t" ? "tsv" : "csv";
  }
  return null;
}

/** Whether two format names agree (a gzipped VCF named .vcf.gz is a VCF; a CSV of counts is a CSV). */
function compatible(named: DataFormat, found: DataFormat): boolean {
  if (named === found) return true;
  if ((named === "csv" || named === "tsv" || named === "text") && (found === "count_matrix" || found === "csv" || found === "tsv" || found === "text" || found === "bed")) return true;
  if (named === "gff" && found === "gtf") return true;
  if (named === "text") return true;
  return false;
}

/** BGZF: gzip with the FEXTRA flag and a `BC` extra subfield (SAMv1 §4.1). */
function isBgzf(bytes: Buffer): boolean {
  return bytes.length >= 18 && (bytes[3]! & 0x04) !== 0 && bytes[12] === 0x42 && bytes[13] === 0x43;
}

function inflateBeginning(bytes: Buffer): Buffer | null {
  try {
    // Concatenated members (BGZF blocks) are inflated one after another; a cut last member is fine.
    return gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: SNIFF_BYTES * 4 });
  } catch {
    return null;
  }
}

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((value, index) => bytes[index] === value);
}
