/**
 * Data analysis on a folder the test makes: paired, lane-split, single-end and mislabelled reads, plus the
 * other formats told apart by content (BGZF VCF, BAM, CRAM, BigWig, GTF, GFF, BED, FASTA, SAM, a count
 * matrix). Every file's format, the pairs and the samples must come out right.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32, deflateRawSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeData, relativeTo, type AnalysedFile } from "../../../src/engine/data/analyze-data.js";
import { parseReadName } from "../../../src/engine/data/read-names.js";

/** A FASTQ text of `count` reads of `length` bases; `read` puts an Illumina 1.8 header with that read number. */
function fastq(count: number, length: number, options: { read?: 1 | 2; quality?: string } = {}): string {
  let text = "";
  for (let index = 0; index < count; index++) {
    const header = options.read ? `@M001:1:FC:1:1101:${1000 + index}:2000 ${options.read}:N:0:ACGT` : `@read${index}`;
    text += `${header}\n${"ACGT".repeat(length).slice(0, length)}\n+\n${(options.quality ?? "I").repeat(length)}\n`;
  }
  return text;
}

/** One BGZF block holding `data` (SAMv1 §4.1): gzip with the BC extra field. */
function bgzf(data: Buffer): Buffer {
  const deflated = deflateRawSync(data);
  const header = Buffer.from([0x1f, 0x8b, 0x08, 0x04, 0, 0, 0, 0, 0, 0xff, 0x06, 0x00, 0x42, 0x43, 0x02, 0x00, 0, 0]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(data), 0);
  trailer.writeUInt32LE(data.length, 4);
  const block = Buffer.concat([header, deflated, trailer]);
  block.writeUInt16LE(block.length - 1, 16);
  return block;
}

describe("analysing a folder of sequencing data", () => {
  let root: string;
  let byName: Map<string, AnalysedFile>;
  let analysis: ReturnType<typeof analyzeData>;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "strand-data-"));
    const reads = join(root, "reads");
    mkdirSync(join(reads, "run2"), { recursive: true });
    const write = (name: string, content: string | Buffer) => writeFileSync(join(reads, name), content);
    // Paired, gzipped, the simple naming.
    write("liver_R1.fastq.gz", gzipSync(fastq(50, 100, { read: 1 })));
    write("liver_R2.fastq.gz", gzipSync(fastq(50, 100, { read: 2 })));
    // Lane-split Illumina naming, two lanes (one in a sub-folder).
    write("kidney_S2_L001_R1_001.fastq.gz", gzipSync(fastq(20, 150)));
    write("kidney_S2_L001_R2_001.fastq.gz", gzipSync(fastq(20, 150)));
    writeFileSync(join(reads, "run2", "kidney_S2_L002_R1_001.fastq.gz"), gzipSync(fastq(20, 150)));
    writeFileSync(join(reads, "run2", "kidney_S2_L002_R2_001.fastq.gz"), gzipSync(fastq(20, 150)));
    // SRA style _1/_2.
    write("SRR100_1.fq", fastq(10, 76));
    write("SRR100_2.fq", fastq(10, 76));
    // Single-end, old Phred+64 qualities.
    write("heart.fastq", fastq(30, 50, { quality: "h" }));
    // A lone R1 is single-end, not half a pair.
    write("lung_R1.fastq.gz", gzipSync(fastq(10, 100)));
    // An R2 without its R1.
    write("brain_R2.fastq.gz", gzipSync(fastq(10, 100)));
    // Mislabelled: named FASTQ, holding FASTA; named .txt, holding FASTQ; named R1 but the headers say read 2.
    write("spleen_R1.fastq", ">chr1\nACGTACGTACGT\nACGT\n>chr2\nGGGG\n");
    write("notes.txt", fastq(8, 60));
    write("skin_R1.fastq.gz", gzipSync(fastq(10, 90, { read: 2 })));
    write("skin_R2.fastq.gz", gzipSync(fastq(10, 90, { read: 1 })));
    // Other formats, decided by content.
    write("calls.vcf.gz", bgzf(Buffer.from("##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\nchr1\t100\t.\tA\tG\t50\tPASS\t.\n")));
    write("aligned.bam", Buffer.concat([bgzf(Buffer.concat([Buffer.from("BAM\x01"), Buffer.alloc(64)])), bgzf(Buffer.alloc(0))]));
    write("aligned.cram", Buffer.concat([Buffer.from("CRAM"), Buffer.from([3, 0]), Buffer.alloc(20)]));
    const bigwig = Buffer.alloc(64);
    bigwig.writeUInt32LE(0x888ffc26, 0);
    write("coverage.bw", bigwig);
    write("genes.gtf", 'chr1\tHAVANA\tgene\t11869\t14409\t.\t+\t.\tgene_id "ENSG00000223972"; gene_name "DDX11L1";\n');
    write("genes.gff3", "##gff-version 3\nchr1\tHAVANA\tgene\t11869\t14409\t.\t+\t.\tID=gene1\n");
    write("peaks.bed", "chr1\t100\t200\tpeak1\t5\t+\nchr2\t300\t400\tpeak2\t7\t-\n");
    write("reference.fa", ">chr1\nACGTNNNNACGT\n>chr2\nACGT\n");
    write("aligned.sam", "@HD\tVN:1.6\tSO:coordinate\n@SQ\tSN:chr1\tLN:1000\nr1\t0\tchr1\t1\t60\t4M\t*\t0\t0\tACGT\tIIII\n");
    write("counts.tsv", "gene\tliver\tkidney\nENSG1\t10\t20\nENSG2\t0\t5\n");
    write("empty.fastq", "");
    symlinkSync(join(reads, "heart.fastq"), join(reads, "linked.fastq"));
    analysis = analyzeData([reads], { display: relativeTo(root) });
    byName = new Map(analysis.files.map((file) => [file.path.split("/").pop()!, file]));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("decides every file's format from its content", () => {
    const formats = Object.fromEntries([...byName].map(([name, file]) => [name, `${file.format}${file.compression === "none" ? "" : `+${file.compression}`}`]));
    expect(formats).toEqual({
      "liver_R1.fastq.gz": "fastq+gzip",
      "liver_R2.fastq.gz": "fastq+gzip",
      "kidney_S2_L001_R1_001.fastq.gz": "fastq+gzip",
      "kidney_S2_L001_R2_001.fastq.gz": "fastq+gzip",
      "kidney_S2_L002_R1_001.fastq.gz": "fastq+gzip",
      "kidney_S2_L002_R2_001.fastq.gz": "fastq+gzip",
      "SRR100_1.fq": "fastq",
      "SRR100_2.fq": "fastq",
      "heart.fastq": "fastq",
      "lung_R1.fastq.gz": "fastq+gzip",
      "brain_R2.fastq.gz": "fastq+gzip",
      "spleen_R1.fastq": "fasta",
      "notes.txt": "fastq",
      "skin_R1.fastq.gz": "fastq+gzip",
      "skin_R2.fastq.gz": "fastq+gzip",
      "calls.vcf.gz": "vcf+bgzf",
      "aligned.bam": "bam+bgzf",
      "aligned.cram": "cram",
      "coverage.bw": "bigwig",
      "genes.gtf": "gtf",
      "genes.gff3": "gff",
      "peaks.bed": "bed",
      "reference.fa": "fasta",
      "aligned.sam": "sam",
      "counts.tsv": "count_matrix",
      "empty.fastq": "fastq",
    });
    expect(byName.get("spleen_R1.fastq")!.warnings.join()).toContain("named like fastq but its content is fasta");
    expect(byName.get("notes.txt")!.detected_by).toBe("content");
    expect(byName.get("empty.fastq")).toMatchObject({ detected_by: "name", format_confidence: 0.3 });
    expect(byName.get("empty.fastq")!.warnings.join()).toContain("empty");
    expect(byName.has("linked.fastq")).toBe(false);
    expect(analysis.warnings.join()).toContain("linked.fastq is a symbolic link and was not followed");
  });

  it("pairs reads by name across the common schemes, lanes merged per sample", () => {
    expect(byName.get("liver_R1.fastq.gz")!.paired_with).toBe("reads/liver_R2.fastq.gz");
    expect(byName.get("liver_R2.fastq.gz")!.paired_with).toBe("reads/liver_R1.fastq.gz");
    expect(byName.get("SRR100_1.fq")!.paired_with).toBe("reads/SRR100_2.fq");
    expect(byName.get("kidney_S2_L002_R1_001.fastq.gz")!.paired_with).toBe("reads/run2/kidney_S2_L002_R2_001.fastq.gz");
    expect(byName.get("lung_R1.fastq.gz")!.paired_with).toBeNull();
    expect(byName.get("heart.fastq")!.paired_with).toBeNull();
    const samples = Object.fromEntries(analysis.samples.map((sample) => [sample.sample, sample]));
    expect(Object.keys(samples).sort()).toEqual(["SRR100", "brain", "heart", "kidney", "liver", "lung", "notes", "skin"]);
    expect(samples.kidney).toMatchObject({
      layout: "paired",
      lanes: [1, 2],
      r1: ["reads/kidney_S2_L001_R1_001.fastq.gz", "reads/run2/kidney_S2_L002_R1_001.fastq.gz"],
      r2: ["reads/kidney_S2_L001_R2_001.fastq.gz", "reads/run2/kidney_S2_L002_R2_001.fastq.gz"],
    });
    expect(samples.liver).toMatchObject({ layout: "paired", r1: ["reads/liver_R1.fastq.gz"], r2: ["reads/liver_R2.fastq.gz"] });
    expect(samples.lung).toMatchObject({ layout: "single", r1: ["reads/lung_R1.fastq.gz"], r2: [] });
    expect(samples.heart).toMatchObject({ layout: "single", r1: ["reads/heart.fastq"] });
    expect(samples.notes).toMatchObject({ layout: "single", r1: ["reads/notes.txt"] }); // FASTQ by content, whatever the name
    expect(samples.brain!.problems.join()).toContain("brain_R2.fastq.gz is read 2 but there is no read 1 for brain");
    // The headers win over a swapped name, and say so.
    expect(byName.get("skin_R1.fastq.gz")!.read).toBe(2);
    expect(byName.get("skin_R1.fastq.gz")!.warnings.join()).toContain("the name says read 1 but the read headers say read 2");
    expect(samples.skin).toMatchObject({ layout: "paired", r1: ["reads/skin_R2.fastq.gz"], r2: ["reads/skin_R1.fastq.gz"] });
    expect(analysis.summary.layout).toBe("mixed");
    expect(analysis.summary.paired_end_detected).toBe(true);
  });

  it("estimates read length and quality encoding from the first records", () => {
    expect(byName.get("kidney_S2_L001_R1_001.fastq.gz")!.fastq).toMatchObject({ records: 20, read_length: { min: 150, max: 150, mean: 150 }, quality_encoding: "phred33" });
    expect(byName.get("heart.fastq")!.fastq).toMatchObject({ records: 30, quality_encoding: "phred64" });
    expect(byName.get("heart.fastq")!.warnings.join()).toContain("Phred+64");
    expect(byName.get("liver_R1.fastq.gz")!.fastq!.header_read).toBe(1);
    expect(analysis.summary.read_length).toMatchObject({ min: 50, max: 150 });
    expect(analysis.summary.quality_encoding).toBe("mixed");
  });

  it("suggests real templates with a score and a reason", () => {
    expect(analysis.suggested_workflow).not.toBeNull();
    for (const suggestion of analysis.suggestions) {
      expect(["rnaseq-quant", "germline-variants", "tumor-normal", "sample-fanout", "conditional-branches"]).toContain(suggestion.template);
      expect(suggestion.reason.length).toBeGreaterThan(10);
      expect(suggestion.score).toBeGreaterThan(0);
    }
  });

  it("stops at the limits and says so", () => {
    const limited = analyzeData([join(root, "reads")], { limits: { maxFiles: 5 } });
    expect(limited.files).toHaveLength(5);
    expect(limited.truncated).toBe(true);
    const shallow = analyzeData([root], { limits: { maxDepth: 1 } });
    expect(shallow.files.some((file) => file.path.includes("run2"))).toBe(false);
    expect(shallow.truncated).toBe(true);
  });
});

describe("read names", () => {
  it.each([
    ["S1_S1_L001_R1_001.fastq.gz", { sample: "S1", lane: 1, read: 1, sample_number: 1 }],
    ["tumor-01_S12_L004_R2_001.fastq.gz", { sample: "tumor-01", lane: 4, read: 2 }],
    ["tumor-01_S12_L004_I1_001.fastq.gz", { sample: "tumor-01", index_read: true, read: null }],
    ["sample.R1.fq.gz", { sample: "sample", read: 1, lane: null }],
    ["sample_R2.fastq", { sample: "sample", read: 2 }],
    ["SRR1234567_1.fastq.gz", { sample: "SRR1234567", read: 1 }],
    ["patient_3_R1_001.fastq.gz", { sample: "patient_3", read: 1 }],
    ["wt_rep1_L002_R1.fq.gz", { sample: "wt_rep1", lane: 2, read: 1 }],
    ["single.fastq.gz", { sample: "single", read: null }],
  ])("%s", (name, expected) => {
    expect(parseReadName(name)).toMatchObject(expected);
  });
});
