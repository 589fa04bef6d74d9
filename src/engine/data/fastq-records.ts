/**
 * What the first records of a FASTQ file say: read lengths and the quality encoding (Phred+33, used since
 * Illumina 1.8, or the old Phred+64), and the read number the Illumina header carries (`1:N:0:…`), which
 * tells R1 from R2 even when the file name does not.
 */

/** Statistics of the sampled records. */
export interface FastqSample {
  records: number;
  read_length: { min: number; max: number; mean: number } | null;
  quality_encoding: "phred33" | "phred64" | "unknown";
  /** The read number from Illumina (CASAVA 1.8+) headers, when every sampled record agrees. */
  header_read: 1 | 2 | null;
}

/** Reads at most this many records. */
export const SAMPLED_RECORDS = 2000;

/** Samples the complete records at the start of a FASTQ text (a cut last record is ignored). */
export function sampleFastq(text: string): FastqSample {
  const lines = text.split(/\r?\n/);
  let records = 0;
  let min = Infinity;
  let max = 0;
  let total = 0;
  let lowest = 255;
  let highest = 0;
  let headerRead: 1 | 2 | null | undefined;
  for (let index = 0; index + 3 < lines.length && records < SAMPLED_RECORDS; index += 4) {
    const name = lines[index]!;
    const sequence = lines[index + 1]!;
    const quality = lines[index + 3]!;
    // The window may cut the last record: a quality line shorter than its sequence is not counted.
    if (!name.startsWith("@") || quality.length !== sequence.length || index + 4 >= lines.length) break;
    records++;
    min = Math.min(min, sequence.length);
    max = Math.max(max, sequence.length);
    total += sequence.length;
    for (let position = 0; position < quality.length; position++) {
      const code = quality.charCodeAt(position);
      if (code < lowest) lowest = code;
      if (code > highest) highest = code;
    }
    const read = /\s([12]):[YN]:\d+:/.exec(name)?.[1];
    const number = read === "1" ? 1 : read === "2" ? 2 : null;
    headerRead = headerRead === undefined ? number : headerRead === number ? headerRead : null;
  }
  return {
    records,
    read_length: records > 0 ? { min, max, mean: Math.round((total / records) * 10) / 10 } : null,
    quality_encoding: encodingOf(records, lowest, highest),
    header_read: headerRead ?? null,
  };
}

/**
 * Phred+33 uses characters from "!" (33); Phred+64 from "@" (64) up to "h" (104). Characters below ";" (59)
 * can only be Phred+33; above "J" (74, the highest Illumina 1.8+ quality) with none below "@" only Phred+64.
 * In between (all qualities in "@".."J") both read, and modern data is far likelier: Phred+33.
 */
function encodingOf(records: number, lowest: number, highest: number): FastqSample["quality_encoding"] {
  if (records === 0) return "unknown";
  if (lowest < 59) return "phred33";
  if (lowest >= 64 && highest > 74) return "phred64";
  if (highest <= 74) return "phred33";
  return "unknown";
}
