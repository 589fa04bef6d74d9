/**
 * The built-in templates (templates/*.oxoflow): the catalogue, and that every template loads, validates and
 * lints with no error and no warning, plans at least one job, is canonically formatted, and — for the
 * runnable ones — runs to completion on a bare machine with every declared output in place.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lintPipeline } from "../../../src/engine/check/lint.js";
import { validatePipeline } from "../../../src/engine/check/validate.js";
import { isFormatted } from "../../../src/engine/format/canonical-format.js";
import { loadPipeline, loadPipelineText } from "../../../src/engine/format/load.js";
import { planPipeline } from "../../../src/engine/run/plan.js";
import { startRun } from "../../../src/engine/run/run-pipeline.js";
import { getTemplate, listTemplates, templateIds, TEMPLATES_DIR } from "../../../src/engine/tools/templates.js";
import { isolateEnvironmentLocks } from "../run/harness.js";
import { removeTempDirs, tempDir, writeFile } from "../../support/temp-workspace.js";

const IDS = ["hello-world", "file-chain", "sample-fanout", "scatter-gather", "rnaseq-quant", "germline-variants", "tumor-normal", "conditional-branches"];
const RUNNABLE = ["hello-world", "file-chain", "sample-fanout"];

isolateEnvironmentLocks();
afterAll(removeTempDirs);

function templateText(id: string): string {
  const template = getTemplate(id);
  if (!template) throw new Error(`no template ${id}`);
  return template.toml_content;
}

describe("template catalogue", () => {
  it("lists the eight templates in order, with their metadata", () => {
    const list = listTemplates();
    expect(list.map((template) => template.id)).toEqual(IDS);
    expect(templateIds()).toEqual(IDS);
    for (const template of list) {
      expect(Object.keys(template).sort()).toEqual(["description", "features", "id", "name", "runnable", "tags", "title"]);
      expect(template.name).toBe(template.id);
      expect(template.title.length).toBeGreaterThan(3);
      expect(template.description.length).toBeGreaterThan(20);
      expect(template.tags.length).toBeGreaterThan(0);
      expect(template.features.length).toBeGreaterThan(0);
      expect(template.runnable).toBe(RUNNABLE.includes(template.id));
    }
  });

  it("returns a template's file text, by id, case-insensitively and with a .oxoflow suffix", () => {
    const template = getTemplate("hello-world")!;
    expect(template.toml_content).toBe(readFileSync(new URL("hello-world.oxoflow", TEMPLATES_DIR), "utf8"));
    expect(template).toMatchObject({ id: "hello-world", name: "hello-world", title: "Hello world", runnable: true });
    expect(getTemplate("Hello-World")?.id).toBe("hello-world");
    expect(getTemplate("file-chain.oxoflow")?.id).toBe("file-chain");
  });

  it("returns undefined for an unknown id, and never a path outside the catalogue", () => {
    expect(getTemplate("nope")).toBeUndefined();
    expect(getTemplate("")).toBeUndefined();
    expect(getTemplate("../package")).toBeUndefined();
    expect(getTemplate("index")).toBeUndefined();
  });

  it("hands out copies: changing a result does not change the catalogue", () => {
    const first = listTemplates()[0]!;
    first.tags.push("changed");
    first.title = "changed";
    const fetched = getTemplate(first.id)!;
    fetched.features.length = 0;
    expect(listTemplates()[0]!.tags).not.toContain("changed");
    expect(listTemplates()[0]!.title).not.toBe("changed");
    expect(getTemplate(first.id)!.features.length).toBeGreaterThan(0);
  });
});

describe.each(IDS)("template %s", (id) => {
  it("is valid and lint-clean (no errors, no warnings), formatted, and plans jobs", async () => {
    const text = templateText(id);
    const pipeline = await loadPipelineText(text, { path: `${id}.oxoflow`, dir: tempDir() });
    expect(pipeline.workflow).toMatchObject({ name: id, version: "1.0.0", author: "strand templates" });
    expect(pipeline.workflow.description).toBeTruthy();
    for (const rule of pipeline.rules) expect(rule.description, `rule ${rule.name}`).toBeTruthy();

    const validation = validatePipeline(pipeline);
    expect(validation.findings.filter((finding) => finding.severity !== "info")).toEqual([]);
    expect(validation.valid).toBe(true);
    expect(validation.missingInputs).toEqual([]);

    const lint = lintPipeline(pipeline, { strict: true });
    expect(lint.findings.filter((finding) => finding.severity !== "info")).toEqual([]);
    expect(lint.passed).toBe(true);

    const plan = planPipeline(pipeline);
    expect(plan.jobs.length).toBeGreaterThanOrEqual(1);
    expect(plan.counts.run).toBeGreaterThanOrEqual(1);
    expect(plan.warnings).toEqual([]);

    expect(isFormatted(text, `${id}.oxoflow`)).toBe(true);
  });
});

describe("what each template shows", () => {
  async function load(id: string) {
    return loadPipelineText(templateText(id), { path: `${id}.oxoflow`, dir: tempDir() });
  }

  it("file-chain: three rules chained by files, driven by [config]", async () => {
    const pipeline = await load("file-chain");
    expect(pipeline.rules.map((rule) => rule.name)).toEqual(["generate", "transform", "summarise"]);
    expect(Object.keys(pipeline.config)).toEqual(expect.arrayContaining(["n_records", "prefix"]));
    expect(validatePipeline(pipeline).dependencies).toBe(2);
  });

  it("sample-fanout: one job per sample and one aggregate", async () => {
    const plan = planPipeline(await load("sample-fanout"));
    expect(plan.jobs.filter((job) => job.job.template === "simulate_reads")).toHaveLength(3);
    expect(plan.jobs.find((job) => job.job.name === "aggregate")!.job.input.paths).toEqual(["stats/sampleA.tsv", "stats/sampleB.tsv", "stats/sampleC.tsv"]);
  });

  it("scatter-gather: one job per configured chromosome, gathered by concat_calls", async () => {
    const pipeline = await load("scatter-gather");
    const chromosomes = pipeline.config.chromosomes as string[];
    const plan = planPipeline(pipeline);
    expect(plan.jobs.filter((job) => job.job.name.startsWith("call_region_"))).toHaveLength(chromosomes.length);
    expect(plan.jobs.find((job) => job.job.name === "concat_calls")!.job.input.paths).toHaveLength(chromosomes.length);
  });

  it("rnaseq-quant and germline-variants: every rule runs in a conda environment", async () => {
    for (const id of ["rnaseq-quant", "germline-variants", "tumor-normal"]) {
      for (const rule of (await load(id)).rules) expect(rule.environment.conda, `${id} ${rule.name}`).toMatch(/^envs\/.+\.yaml$/);
    }
  });

  it("tumor-normal: pair rules run once per pair with the tumour and its normal", async () => {
    const plan = planPipeline(await load("tumor-normal"));
    const mutect = plan.jobs.filter((job) => job.job.template === "mutect2").map((job) => job.job);
    expect(mutect.map((job) => job.name)).toEqual(["mutect2_PT01", "mutect2_PT02"]);
    expect(mutect[0]!.input.paths).toEqual(["dedup/PT01_tumor.bam", "dedup/PT01_normal.bam"]);
  });

  it("conditional-branches: the assay picks the coverage branch", async () => {
    const wgs = planPipeline(await load("conditional-branches"));
    const skipped = (plan: typeof wgs) => plan.jobs.filter((job) => job.reason.code === "condition-false").map((job) => job.job.template);
    expect(new Set(skipped(wgs))).toEqual(new Set(["coverage_wes"]));
    const wes = await loadPipelineText(templateText("conditional-branches"), { dir: tempDir(), overrides: { assay: "wes", run_qc: "false" } });
    expect(new Set(skipped(planPipeline(wes)))).toEqual(new Set(["coverage_wgs", "fastqc"]));
  });
});

describe.each(RUNNABLE)("runnable template %s", (id) => {
  it("runs to completion on a bare machine, every output in place", async () => {
    const dir = tempDir();
    const path = writeFile(dir, "main.oxoflow", templateText(id));
    const pipeline = await loadPipeline(path);
    const plan = planPipeline(pipeline);
    const result = await startRun(pipeline, { jobs: 4 }).result;
    expect(result.status, result.error).toBe("completed");
    expect(result.counts.succeeded).toBe(plan.jobs.length);
    expect(result.counts.failed).toBe(0);
    for (const job of plan.jobs) for (const output of job.job.output.paths) expect(existsSync(join(dir, output)), output).toBe(true);
  });
});

it("sample-fanout's aggregate holds one row per sample", async () => {
  const dir = tempDir();
  const pipeline = await loadPipeline(writeFile(dir, "main.oxoflow", templateText("sample-fanout")));
  expect((await startRun(pipeline).result).status).toBe("completed");
  const rows = readFileSync(join(dir, "results/cohort_summary.tsv"), "utf8").trim().split("\n");
  expect(rows[0]).toBe("sample\ttotal\tkept");
  expect(rows.slice(1).map((row) => row.split("\t")[0])).toEqual(["sampleA", "sampleB", "sampleC"]);
  for (const row of rows.slice(1)) expect(Number(row.split("\t")[1])).toBe(200);
});
