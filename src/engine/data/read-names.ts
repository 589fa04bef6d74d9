/**
 * Sample, lane and read number from sequencing file names in the common schemes — Illumina's
 * `<sample>_S<n>_L<lane>_R<1|2>_001.fastq.gz`, `<sample>_R1.fq.gz`, `<sample>.R1.fastq`, `<sample>_1.fastq.gz`
 * (SRA) — and the pairing of R1 with R2 files of the same sample and lane. A lone R1 is single-end, an R2
 * without its R1 is reported, and lanes of one sample are merged.
 */

/** What a file name says. */
export interface ReadName {
  sample: string;
  lane: number | null;
  /** 1 or 2 for paired reads, null when the name carries no read number. */
  read: 1 | 2 | null;
  /** An index read (I1/I2) rather than a biological read. */
  index_read: boolean;
  /** The Illumina sample number (`S12`), if any. */
  sample_number: number | null;
}

const SEQUENCE_SUFFIX = /\.(fastq|fq|fasta|fa|sam|bam|cram)(\.gz|\.bz2)?$/i;

/** Parses a file's base name; the sample is the name without the read, lane and chunk parts. */
export function parseReadName(fileName: string): ReadName {
  // A sequence suffix, else whatever extension the file has (FASTQ content is sometimes named .txt).
  let stem = SEQUENCE_SUFFIX.test(fileName) ? fileName.replace(SEQUENCE_SUFFIX, "") : fileName.replace(/\.[^.]+(\.gz)?$/, "");
  let read: 1 | 2 | null = null;
  let indexRead = false;
  let lane: number | null = null;
  let sampleNumber: number | null = null;
  // Illumina: sample_S1_L001_R1_001
  const illumina = /^(.*?)_S(\d+)(?:_L(\d{3}))?_([RI])([12])_\d{3}$/.exec(stem);
  if (illumina) {
    return { sample: illumina[1]!, sample_number: Number(illumina[2]), lane: illumina[3] ? Number(illumina[3]) : null, read: illumina[4] === "R" ? (Number(illumina[5]) as 1 | 2) : null, index_read: illumina[4] === "I" };
  }
  const chunk = /_\d{3}$/.exec(stem);
  if (chunk && /[._]R[12]_\d{3}$/.test(stem)) stem = stem.slice(0, chunk.index);
  const readPart = /[._-](R?)([12])$/i.exec(stem);
  if (readPart) {
    read = Number(readPart[2]) as 1 | 2;
    stem = stem.slice(0, readPart.index);
  } else {
    const indexPart = /[._]I([12])$/.exec(stem);
    if (indexPart) {
      indexRead = true;
      stem = stem.slice(0, indexPart.index);
    }
  }
  const lanePart = /[._]L(\d{3})$/.exec(stem);
  if (lanePart) {
    lane = Number(lanePart[1]);
    stem = stem.slice(0, lanePart.index);
  }
  const samplePart = /_S(\d+)$/.exec(stem);
  if (samplePart && samplePart.index > 0) {
    sampleNumber = Number(samplePart[1]);
    stem = stem.slice(0, samplePart.index);
  }
  return { sample: stem || fileName, lane, read, index_read: indexRead, sample_number: sampleNumber };
}

/** A file as pairing sees it. */
export interface PairableFile {
  path: string;
  name: ReadName;
}

/** One sample's reads: lanes merged, R1 and R2 lists in lane order, and whether it is paired. */
export interface SampleReads {
  sample: string;
  layout: "paired" | "single" | "mixed";
  lanes: number[];
  r1: string[];
  r2: string[];
  /** In a mixed sample, the files without a read number (a single-end sample lists its files under r1). */
  single: string[];
  problems: string[];
}

/** Pairs each R1 with the R2 of the same sample and lane; returns `paired_with` per path and the samples. */
export function pairReads(files: PairableFile[]): { pairedWith: Map<string, string>; samples: SampleReads[] } {
  const pairedWith = new Map<string, string>();
  const bySample = new Map<string, PairableFile[]>();
  for (const file of files) {
    if (file.name.index_read) continue;
    const list = bySample.get(file.name.sample) ?? [];
    list.push(file);
    bySample.set(file.name.sample, list);
  }
  const samples: SampleReads[] = [];
  for (const [sample, list] of [...bySample].sort(([a], [b]) => a.localeCompare(b))) {
    const key = (file: PairableFile) => `${file.name.lane ?? 0}`;
    const r1 = new Map(list.filter((file) => file.name.read === 1).map((file) => [key(file), file]));
    const r2 = new Map(list.filter((file) => file.name.read === 2).map((file) => [key(file), file]));
    const problems: string[] = [];
    for (const [lane, first] of r1) {
      const second = r2.get(lane);
      if (second) {
        pairedWith.set(first.path, second.path);
        pairedWith.set(second.path, first.path);
      }
    }
    for (const [lane, second] of r2) if (!r1.has(lane)) problems.push(`${second.path} is read 2 but there is no read 1 for ${sample}${lane !== "0" ? ` lane ${lane}` : ""}`);
    const single = list.filter((file) => file.name.read === null).map((file) => file.path).sort();
    const pairedCount = [...r1.keys()].filter((lane) => r2.has(lane)).length;
    const loneR1 = [...r1.keys()].filter((lane) => !r2.has(lane)).length;
    const layout: SampleReads["layout"] = pairedCount > 0 && loneR1 === 0 && single.length === 0 && problems.length === 0 ? "paired" : pairedCount === 0 && r2.size === 0 ? "single" : "mixed";
    if (layout === "mixed") problems.push(`${sample} mixes paired and single-end files`);
    const lanes = [...new Set(list.map((file) => file.name.lane).filter((lane): lane is number => lane !== null))].sort((a, b) => a - b);
    const byLane = (a: PairableFile, b: PairableFile) => (a.name.lane ?? 0) - (b.name.lane ?? 0) || a.path.localeCompare(b.path);
    samples.push({
      sample,
      layout,
      lanes,
      // Single-end: every read file is a first read (a lone R1 is single-end, not half a pair).
      r1: layout === "single" ? [...list.filter((file) => file.name.read !== 2)].sort(byLane).map((file) => file.path) : [...r1.values()].sort(byLane).map((file) => file.path),
      r2: [...r2.values()].sort(byLane).map((file) => file.path),
      single: layout === "single" ? [] : single,
      problems,
    });
  }
  return { pairedWith, samples };
}
