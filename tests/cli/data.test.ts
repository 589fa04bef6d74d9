/**
 * `strand data analyze` and `strand data samplesheet`: the readable table (file, format, sample, read, lane,
 * paired with, read length, quality), the samples and suggestions, the --json envelope, a sheet written
 * with -o, and usage errors.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnvelope, runStrand, tempFolder, type TempFolder } from "../support/strand-cli.js";

function fastq(count: number, length: number): string {
  let text = "";
  for (let index = 0; index < count; index++) text += `@read${index}\n${"ACGT".repeat(length).slice(0, length)}\n+\n${"I".repeat(length)}\n`;
  return text;
}

describe("strand data", () => {
  let folder: TempFolder;

  beforeAll(() => {
    folder = tempFolder({ "reads/heart.fastq": fastq(5, 50), "reads/spleen_R1.fastq": ">chr1\nACGT\n", "reads/notes.txt": fastq(3, 60) });
    writeFileSync(folder.path("reads", "liver_R1.fastq.gz"), gzipSync(fastq(10, 150)));
    writeFileSync(folder.path("reads", "liver_R2.fastq.gz"), gzipSync(fastq(10, 150)));
    writeFileSync(folder.path("reads", "kidney_S2_L001_R1_001.fastq.gz"), gzipSync(fastq(4, 100)));
    writeFileSync(folder.path("reads", "kidney_S2_L001_R2_001.fastq.gz"), gzipSync(fastq(4, 100)));
    writeFileSync(folder.path("reads", "kidney_S2_L002_R1_001.fastq.gz"), gzipSync(fastq(4, 100)));
    writeFileSync(folder.path("reads", "kidney_S2_L002_R2_001.fastq.gz"), gzipSync(fastq(4, 100)));
  });
  afterAll(() => folder.remove());

  it("prints a table of the files, then the samples and the suggested templates", async () => {
    const result = await runStrand(["data", "analyze", "reads"], { cwd: folder.dir });
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^FILE\s+FORMAT\s+SAMPLE\s+READ\s+LANE\s+PAIRED WITH\s+READ LENGTH\s+QUALITY$/);
    const row = (name: string) => lines.find((line) => line.startsWith(`reads/${name} `))!.split(/\s{2,}/);
    expect(row("liver_R1.fastq.gz")).toEqual(["reads/liver_R1.fastq.gz", "fastq (gzip)", "liver", "R1", "-", "liver_R2.fastq.gz", "150", "phred33"]);
    expect(row("kidney_S2_L002_R2_001.fastq.gz")).toEqual(["reads/kidney_S2_L002_R2_001.fastq.gz", "fastq (gzip)", "kidney", "R2", "2", "kidney_S2_L002_R1_001.fastq.gz", "100", "phred33"]);
    expect(row("spleen_R1.fastq").slice(0, 2)).toEqual(["reads/spleen_R1.fastq", "fasta"]);
    expect(row("notes.txt").slice(0, 3)).toEqual(["reads/notes.txt", "fastq", "notes"]);
    const samples = lines.findIndex((line) => /^SAMPLE\s+LAYOUT\s+LANES\s+FILES$/.test(line));
    expect(samples).toBeGreaterThan(0);
    expect(lines.slice(samples + 1, samples + 5).map((line) => line.split(/\s{2,}/))).toEqual([
      ["heart", "single", "-", "1"],
      ["kidney", "paired", "1,2", "4"],
      ["liver", "paired", "-", "2"],
      ["notes", "single", "-", "1"],
    ]);
    expect(result.stdout).toContain("Suggested templates:");
    expect(result.stdout).toMatch(/strand template \S+ -o main\.oxoflow/);
    expect(result.stderr).toContain("named like fastq but its content is fasta");
  });

  it("gives the analysis in the JSON envelope with --json, bounded by --max-depth", async () => {
    const result = await runStrand(["data", "analyze", ".", "--max-depth", "0", "--json"], { cwd: folder.dir });
    expect(result.exitCode, result.stderr).toBe(0);
    const envelope = parseEnvelope<{ files: unknown[]; truncated: boolean }>(result);
    expect(envelope.command).toBe("data analyze");
    expect(envelope.data).toMatchObject({ files: [], truncated: true });
    const deep = parseEnvelope<{ files: { path: string; paired_with: string | null }[]; samples: { sample: string }[] }>(await runStrand(["data", "analyze", "reads", "--json"], { cwd: folder.dir }));
    expect(deep.data.files.find((file) => file.path === "reads/liver_R1.fastq.gz")!.paired_with).toBe("reads/liver_R2.fastq.gz");
    expect(deep.data.samples.map((sample) => sample.sample)).toEqual(["heart", "kidney", "liver", "notes"]);
  });

  it("writes a sample sheet with -o, one row per lane", async () => {
    const result = await runStrand(["data", "samplesheet", "reads", "-o", "sheet.csv"], { cwd: folder.dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(readFileSync(folder.path("sheet.csv"), "utf8").split("\n")).toEqual([
      "sample,fastq_1,fastq_2",
      "heart,reads/heart.fastq,",
      "kidney,reads/kidney_S2_L001_R1_001.fastq.gz,reads/kidney_S2_L001_R2_001.fastq.gz",
      "kidney,reads/kidney_S2_L002_R1_001.fastq.gz,reads/kidney_S2_L002_R2_001.fastq.gz",
      "liver,reads/liver_R1.fastq.gz,reads/liver_R2.fastq.gz",
      "notes,reads/notes.txt,",
      "",
    ]);
    const again = await runStrand(["data", "samplesheet", "reads", "-o", "sheet.csv"], { cwd: folder.dir });
    expect(again.exitCode).not.toBe(0);
    expect(again.stderr).toContain("already exists");
  });

  it("refuses a missing path, no path and an unknown subcommand", async () => {
    const missing = await runStrand(["data", "analyze", "nowhere"], { cwd: folder.dir });
    expect(missing.exitCode).not.toBe(0);
    expect(missing.stderr).toContain("nowhere does not exist");
    const none = await runStrand(["data", "analyze"], { cwd: folder.dir });
    expect(none.exitCode).toBe(2);
    const unknown = await runStrand(["data", "scan", "reads"], { cwd: folder.dir });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("unknown data subcommand 'scan'");
  });
});
