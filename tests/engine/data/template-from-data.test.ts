/**
 * A built-in template filled from analysed data: samples written into `[[sample_groups]]`, read inputs
 * rewritten to the data's name pattern, or a `stage_reads` rule (run here in bash) when lanes are split;
 * the result validates and keeps the template's comments.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeData } from "../../../src/engine/data/analyze-data.js";
import { templateFromData } from "../../../src/engine/data/template-from-data.js";
import { validatePipeline } from "../../../src/engine/check/validate.js";
import { expandPipeline } from "../../../src/engine/expand/expand.js";
import { renderCommand, renderContext } from "../../../src/engine/expand/render-command.js";
import { loadPipelineText } from "../../../src/engine/format/load.js";
import { removeTempDirs, tempDir } from "../../support/temp-workspace.js";

afterAll(removeTempDirs);

const fastq = (name: string, count = 4) => Array.from({ length: count }, (_, i) => `@${name}.${i}\nACGTACGTAC\n+\nIIIIIIIIII\n`).join("");

function folderWith(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), gzipSync(content));
  }
  return dir;
}

async function check(text: string, dir: string) {
  const pipeline = await loadPipelineText(text, { path: "main.oxoflow", dir });
  const report = validatePipeline(pipeline);
  return { pipeline, errors: report.findings.filter((finding) => finding.severity === "error") };
}

describe("a template filled from the data", () => {
  it("writes the samples and points the template's read inputs at one common name pattern", async () => {
    const data = folderWith({ "ctrl_1.fastq.gz": fastq("c1"), "ctrl_2.fastq.gz": fastq("c2"), "treated_1.fastq.gz": fastq("t1"), "treated_2.fastq.gz": fastq("t2") });
    const filled = templateFromData("rnaseq-quant", analyzeData([data]));
    expect(filled.samples).toEqual(["ctrl", "treated"]);
    expect(filled.reads).toEqual({ how: "pattern", r1: `${data}/{sample}_1.fastq.gz`, r2: `${data}/{sample}_2.fastq.gz` });
    expect(filled.toml_content).toContain(`input = { r1 = "${data}/{sample}_1.fastq.gz", r2 = "${data}/{sample}_2.fastq.gz" }`);
    expect(filled.toml_content).toContain('samples = ["ctrl", "treated"]');
    expect(filled.toml_content).not.toContain('"raw/{sample}_R1.fastq.gz"');
    // The template's own comments stay, under one line that says what was filled in.
    expect(filled.toml_content.split("\n")[0]).toBe(`# Filled from your data: 2 paired-end sample(s), reads at ${data}/{sample}_1.fastq.gz.`);
    expect(filled.toml_content).toContain("# strand template: rnaseq-quant");
    const { errors } = await check(filled.toml_content, tempDir());
    expect(errors).toEqual([]);
  });

  it("gathers lane-split files with a stage_reads rule whose command concatenates each sample's lanes in order", async () => {
    const data = folderWith({
      "kidney_S1_L001_R1_001.fastq.gz": fastq("k1a"),
      "kidney_S1_L002_R1_001.fastq.gz": fastq("k1b"),
      "kidney_S1_L001_R2_001.fastq.gz": fastq("k2a"),
      "kidney_S1_L002_R2_001.fastq.gz": fastq("k2b"),
      "liver_S2_L001_R1_001.fastq.gz": fastq("l1"),
      "liver_S2_L001_R2_001.fastq.gz": fastq("l2"),
    });
    const filled = templateFromData("germline-variants", analyzeData([data]));
    expect(filled.samples).toEqual(["kidney", "liver"]);
    expect(filled.reads).toEqual({ how: "staged", rule: "stage_reads" });
    expect(filled.notes.join("\n")).toContain("lanes are split over several files");
    const work = tempDir();
    const { pipeline, errors } = await check(filled.toml_content, work);
    expect(errors).toEqual([]);
    const expansion = await expandPipeline(pipeline, "plan");
    const stage = expansion.jobs.find((job) => job.template === "stage_reads" && job.output.paths.some((path) => path.includes("kidney")))!;
    expect(stage.output.paths).toEqual(["raw/kidney_R1.fastq.gz", "raw/kidney_R2.fastq.gz"]);
    mkdirSync(join(work, "raw"));
    mkdirSync(join(work, "logs", "stage_reads"), { recursive: true });
    execFileSync("bash", ["-c", renderCommand(stage, renderContext(expansion.pipeline, { cpus: 2, memoryMb: 4096 }))], { cwd: work });
    expect(gunzipSync(readFileSync(join(work, "raw/kidney_R1.fastq.gz"))).toString()).toBe(fastq("k1a") + fastq("k1b"));
    expect(gunzipSync(readFileSync(join(work, "raw/kidney_R2.fastq.gz"))).toString()).toBe(fastq("k2a") + fastq("k2b"));
    // The aligner reads what the staging rule wrote: the graph has the edge.
    expect(expansion.jobs.some((job) => job.template !== "stage_reads" && job.input.paths.includes("raw/kidney_R1.fastq.gz"))).toBe(true);
  });

  it("says so, and leaves the inputs, when single-end samples meet a paired-end template; relative paths go through runPath", async () => {
    const data = folderWith({ "a.fastq.gz": fastq("a"), "b.fastq.gz": fastq("b") });
    const filled = templateFromData("rnaseq-quant", analyzeData([data]));
    expect(filled.samples).toEqual(["a", "b"]);
    expect(filled.reads).toMatchObject({ how: "unchanged" });
    expect(filled.notes.join("\n")).toContain("the samples are single-end");
    expect(filled.toml_content).toContain('"raw/{sample}_R1.fastq.gz"');

    // A template that reads one file per sample takes single-end reads, through the run's path for them.
    const fanout = templateFromData("sample-fanout", analyzeData([data]));
    expect(fanout.reads).toMatchObject({ how: "unchanged", reason: "the template reads no per-sample FASTQ files" });
    expect(fanout.toml_content).toContain('samples = ["a", "b"]');
    const analysis = analyzeData([data], { display: (path) => path.slice(data.length + 1) });
    const paired = folderWith({ "x_R1.fq.gz": fastq("x1"), "x_R2.fq.gz": fastq("x2") });
    const relative = templateFromData("rnaseq-quant", analyzeData([paired], { display: (path) => `uploads/${path.slice(paired.length + 1)}` }), (shown) => `/srv/strand/users/u1/files/${shown}`);
    expect(relative.reads).toEqual({ how: "pattern", r1: "/srv/strand/users/u1/files/uploads/{sample}_R1.fq.gz", r2: "/srv/strand/users/u1/files/uploads/{sample}_R2.fq.gz" });
    expect(analysis.samples.map((sample) => sample.sample)).toEqual(["a", "b"]);
  });

  it("refuses an unknown template and data without FASTQ samples, with codes", () => {
    const data = folderWith({ "a.fastq.gz": fastq("a") });
    expect(() => templateFromData("no-such", analyzeData([data]))).toThrow(expect.objectContaining({ code: "DATA_ERROR" }));
    expect(() => templateFromData("rnaseq-quant", { samples: [] })).toThrow(expect.objectContaining({ code: "DATA_ERROR", finding: expect.objectContaining({ suggestion: expect.stringContaining("FASTQ") }) }));
  });
});
