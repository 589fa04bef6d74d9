/**
 * nf-core-style sample sheets: read by header name (columns in any order, TSV or CSV, quoted cells), each
 * problem at its line and column, and written back from analysed samples.
 */
import { describe, expect, it } from "vitest";
import { parseSampleSheet, writeSampleSheet } from "../../../src/engine/data/sample-sheets.js";

const files = new Set(["a_R1.fastq.gz", "a_R2.fastq.gz", "b_R1.fastq.gz", "b_R2.fastq.gz", "c.fastq.gz", "a_L2_R1.fastq.gz", "a_L2_R2.fastq.gz"]);
const exists = (path: string) => files.has(path);

describe("reading a sample sheet", () => {
  it("maps columns by header name, not position, in CSV and TSV", () => {
    const csv = parseSampleSheet("fastq_2,condition,sample,fastq_1\nb_R2.fastq.gz,treated,B,b_R1.fastq.gz\na_R2.fastq.gz,control,A,a_R1.fastq.gz\n", { fileExists: exists });
    expect(csv).toMatchObject({ format: "nf-core", delimiter: "csv", valid: true, samples_count: 2 });
    expect(csv.rows[0]).toMatchObject({ line: 2, sample: "B", fastq_1: "b_R1.fastq.gz", fastq_2: "b_R2.fastq.gz", condition: "treated" });
    const tsv = parseSampleSheet("Sample_ID\tR1\tR2\nA\ta_R1.fastq.gz\ta_R2.fastq.gz\n", { fileExists: exists });
    expect(tsv).toMatchObject({ delimiter: "tsv", valid: true, columns: { sample: "Sample_ID", fastq_1: "R1", fastq_2: "R2" } });
    expect(tsv.samples[0]).toMatchObject({ sample: "A", layout: "paired" });
  });

  it("merges a sample's rows as its lanes, and keeps quoted cells whole", () => {
    const sheet = parseSampleSheet('sample,fastq_1,fastq_2\nA,a_R1.fastq.gz,a_R2.fastq.gz\n"A",a_L2_R1.fastq.gz,a_L2_R2.fastq.gz\nC,c.fastq.gz,\n', { fileExists: exists });
    expect(sheet.valid).toBe(true);
    expect(sheet.samples).toEqual([
      { sample: "A", layout: "paired", rows: 2, fastq_1: ["a_R1.fastq.gz", "a_L2_R1.fastq.gz"], fastq_2: ["a_R2.fastq.gz", "a_L2_R2.fastq.gz"], condition: null },
      { sample: "C", layout: "single", rows: 1, fastq_1: ["c.fastq.gz"], fastq_2: [], condition: null },
    ]);
    expect(sheet.warnings.map((warning) => warning.message).join()).toContain("some samples are paired-end and others single-end");
  });

  it("names each problem's line and column: missing files, duplicates, R2 without R1, mixed layouts", () => {
    const sheet = parseSampleSheet(
      ["sample,fastq_1,fastq_2", "A,a_R1.fastq.gz,a_R2.fastq.gz", "A,a_R1.fastq.gz,a_R2.fastq.gz", "B,,b_R2.fastq.gz", "D,missing_R1.fastq.gz,", "A,a_L2_R1.fastq.gz,", "bad name,c.fastq.gz,"].join("\n"),
      { fileExists: exists },
    );
    expect(sheet.valid).toBe(false);
    const messages = sheet.errors.map((error) => [error.line, error.column, error.message]);
    expect(messages).toContainEqual([3, "sample", "line 3: the same row as line 2 (sample A)"]);
    expect(messages).toContainEqual([4, "fastq_1", "line 4: b_R2.fastq.gz is a second read without a first read"]);
    expect(messages).toContainEqual([5, "fastq_1", "line 5: missing_R1.fastq.gz does not exist"]);
    expect(messages).toContainEqual([7, "sample", "line 7: sample 'bad name' contains spaces"]);
    expect(sheet.errors.find((error) => error.message.includes("mixes single-end and paired-end"))).toMatchObject({ line: 2, column: "fastq_2" });
    for (const error of sheet.errors) expect(error.suggestion ?? error.message).toBeTruthy();
  });

  it("says what is wrong with a header it cannot use, and with a quote never closed", () => {
    const noSample = parseSampleSheet("name_of_thing,file\nA,a.fastq.gz\n");
    expect(noSample).toMatchObject({ valid: false, format: "unknown", detected_headers: ["name_of_thing", "file"] });
    expect(noSample.errors[0]!.message).toContain("no sample and fastq_1 column");
    const unclosed = parseSampleSheet('sample,fastq_1\nA,"a_R1.fastq.gz\n');
    expect(unclosed.valid).toBe(false);
    expect(unclosed.errors[0]).toMatchObject({ line: 2 });
    expect(parseSampleSheet("").errors[0]!.message).toBe("the sheet is empty");
  });
});

describe("writing a sample sheet from analysed samples", () => {
  it("writes one row per lane, the second read only for paired samples, and reads back the same", () => {
    const text = writeSampleSheet([
      { sample: "kidney", layout: "paired", lanes: [1, 2], r1: ["k_L001_R1.fastq.gz", "k_L002_R1.fastq.gz"], r2: ["k_L001_R2.fastq.gz", "k_L002_R2.fastq.gz"], single: [], problems: [] },
      { sample: "heart", layout: "single", lanes: [], r1: ["reads/heart, left.fastq"], r2: [], single: [], problems: [] },
    ]);
    expect(text).toBe('sample,fastq_1,fastq_2\nkidney,k_L001_R1.fastq.gz,k_L001_R2.fastq.gz\nkidney,k_L002_R1.fastq.gz,k_L002_R2.fastq.gz\nheart,"reads/heart, left.fastq",\n');
    const back = parseSampleSheet(text);
    expect(back.samples.map((sample) => [sample.sample, sample.layout, sample.rows])).toEqual([
      ["kidney", "paired", 2],
      ["heart", "single", 1],
    ]);
  });
});
