/**
 * The stateless tooling endpoints over HTTP: each answers with its documented shape, refuses a missing
 * `toml_content` with MISSING_FIELD, turns engine failures into its domain code with the position, and never
 * reads anything outside the sent text (includes and sample sheets are noted, not read).
 */
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../../../support/service-harness.js";

let service: TestService;
beforeAll(async () => (service = await startTestService({ rateLimit: 0 })));
afterAll(() => service.close());

const PIPELINE = `[workflow]
name = "tooling"
version = "1.0"

[config]
greeting = "hello"

[[sample_groups]]
name = "g"
samples = ["S1", "S2"]

[[rules]]
name = "make"
description = "make one file per sample"
output = ["out/{sample}.txt"]
shell = "echo {config.greeting} {sample} > {output}"

[[rules]]
name = "merge"
description = "merge them"
input = ["out/S1.txt", "out/S2.txt"]
output = ["merged.txt"]
shell = "cat {input} > {output}"
`;

async function post(endpoint: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${service.url}/api/pipelines/${endpoint}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe("POST /api/pipelines/{tool}", () => {
  it("parse returns the structure", async () => {
    const { status, json } = await post("parse", { toml_content: PIPELINE });
    expect(status).toBe(200);
    expect(json.workflow).toEqual({ name: "tooling", version: "1.0", description: null, author: null });
    expect((json.rules as { name: string }[]).map((rule) => rule.name)).toEqual(["make", "merge"]);
    expect(json.config).toEqual({ greeting: "hello" });
    expect(json.sample_groups).toEqual([{ name: "g", samples: ["S1", "S2"] }]);
  });

  it("validate returns findings; a syntax error is a 200 with one positioned PARSE_ERROR", async () => {
    const ok = await post("validate", { toml_content: PIPELINE });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ valid: true, errors: [], rules: 2 });
    const broken = await post("validate", { toml_content: "[workflow\nname = 1" });
    expect(broken.status).toBe(200);
    expect(broken.json).toMatchObject({ valid: false, errors: [{ code: "PARSE_ERROR", severity: "error", line: 1 }] });
    const invalid = await post("validate", { toml_content: PIPELINE.replace('name = "merge"', 'name = "make"') });
    expect((invalid.json.valid as boolean) || (invalid.json.errors as unknown[]).length > 0).toBe(true);
  });

  it("prepare expands jobs with rendered commands, counts per rule and environment set-ups", async () => {
    const { status, json } = await post("prepare", { toml_content: PIPELINE, config: { greeting: "hi" }, limit: 2 });
    expect(status).toBe(200);
    expect(json.jobs_total).toBe(3);
    expect(json.rules).toEqual([
      { rule: "make", jobs: 2 },
      { rule: "merge", jobs: 1 },
    ]);
    expect(json.jobs).toHaveLength(2);
    expect((json.jobs as { command: string }[])[0]!.command).toBe("echo hi S1 > out/S1.txt");
  });

  it("dag returns nodes, edges, levels, the critical path and metrics, rule-level or expanded", async () => {
    const rules = await post("dag", { toml_content: PIPELINE });
    expect(rules.status).toBe(200);
    expect(rules.json.levels).toEqual([["make"], ["merge"]]);
    const jobs = await post("dag", { toml_content: PIPELINE, expanded: true });
    expect(jobs.json.metrics).toEqual({ nodes: 3, edges: 2, max_depth: 2, max_width: 2 });
    expect(jobs.json.edges).toContainEqual({ from: "make_g_S1", to: "merge", kind: "file" });
    expect((jobs.json.critical_path as string[]).at(-1)).toBe("merge");
  });

  it("format, lint, stats, diff and export answer with their documented shapes", async () => {
    const formatted = await post("format", { toml_content: PIPELINE });
    expect(formatted.json).toMatchObject({ changed: expect.any(Boolean), formatted: expect.stringContaining("[workflow]") });
    const lint = await post("lint", { toml_content: PIPELINE, strict: true });
    expect(lint.json).toMatchObject({ valid: expect.any(Boolean), errors: [], warnings: expect.any(Array), info: expect.any(Array) });
    const stats = await post("stats", { toml_content: PIPELINE });
    expect(stats.json).toMatchObject({ rules: 2, jobs: 3, samples: 2 });
    const diff = await post("diff", { toml_a: PIPELINE, toml_b: PIPELINE.replace('greeting = "hello"', 'greeting = "hey"') });
    expect(diff.json.identical).toBe(false);
    expect(diff.json.unified_diff).toContain('+greeting = "hey"');
    const exported = await post("export", { toml_content: PIPELINE, format: "singularity" });
    expect(exported.json).toMatchObject({ format: "singularity", filename: expect.stringMatching(/\.def$/) });
  });

  it("refuses a missing toml_content with MISSING_FIELD, bad JSON and wrong types with BAD_REQUEST", async () => {
    for (const endpoint of ["parse", "validate", "prepare", "dag", "format", "lint", "stats", "export"]) {
      const { status, json } = await post(endpoint, {});
      expect(status).toBe(400);
      expect(json).toMatchObject({ code: "MISSING_FIELD", message: expect.stringContaining("toml_content") });
    }
    expect((await post("diff", { toml_a: PIPELINE })).json).toMatchObject({ code: "MISSING_FIELD", message: expect.stringContaining("toml_b") });
    expect((await post("validate", "{not json")).json).toMatchObject({ code: "BAD_REQUEST" });
    expect((await post("validate", { toml_content: 42 })).json).toMatchObject({ code: "BAD_REQUEST", detail: expect.stringContaining("toml_content") });
    expect((await post("export", { toml_content: PIPELINE, format: "zip" })).json).toMatchObject({ code: "BAD_REQUEST" });
  });

  it("gives engine failures the endpoint's code with the engine code and position in detail", async () => {
    const dag = await post("dag", { toml_content: "[workflow\n" });
    expect(dag.status).toBe(400);
    expect(dag.json).toMatchObject({ code: "PARSE_ERROR", detail: expect.stringMatching(/line 1, column/) });
    const cycle = await post("dag", { toml_content: `[workflow]\nname = "c"\nversion = "1"\n[[rules]]\nname = "a"\ninput = ["b.txt"]\noutput = ["a.txt"]\nshell = "x"\n[[rules]]\nname = "b"\ninput = ["a.txt"]\noutput = ["b.txt"]\nshell = "x"\n` });
    expect(cycle.status).toBe(400);
    expect(cycle.json).toMatchObject({ code: "DAG_ERROR", message: expect.stringContaining("cycle") });
  });

  it("never reads files named by the sent text: includes and sample sheets are noted, not read", async () => {
    const dir = mkdtempSync(join(tmpdir(), "strand-secret-"));
    writeFileSync(join(dir, "samples.tsv"), "sample\tgroup\nLEAKED\tg\n");
    writeFileSync(join(dir, "module.oxoflow"), `[workflow]\nname = "m"\nversion = "1"\n[[rules]]\nname = "leaked_rule"\nshell = "true"\n`);
    const text = `[workflow]\nname = "probe"\nversion = "1"\nsample_groups_file = "${join(dir, "samples.tsv")}"\n\n[[include]]\npath = "${join(dir, "module.oxoflow")}"\n\n[[rules]]\nname = "r"\nshell = "true"\n`;
    const parsed = await post("parse", { toml_content: text });
    expect(parsed.status).toBe(200);
    expect(JSON.stringify(parsed.json)).not.toContain("LEAKED");
    expect((parsed.json.rules as { name: string }[]).map((rule) => rule.name)).toEqual(["r"]);
    const validated = await post("validate", { toml_content: text });
    const codes = (validated.json.warnings as { code: string }[]).map((finding) => finding.code);
    expect(codes).toEqual(expect.arrayContaining(["INCLUDE_NOT_READ", "SOURCE_NOT_READ"]));
  });

  it("lists no folder a sent text's transform glob names, and looks at no file its conditions name (review of issue 25, finding 2)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "strand-secret-"));
    for (const name of ["LEAKED-ONE.fq", "LEAKED-TWO.fq"]) writeFileSync(join(dir, name), "x");
    const text = (condition: string) =>
      `[workflow]\nname = "probe"\nversion = "1"\n\n[[rules]]\nname = "t"\nwhen = '${condition}'\n\n[rules.transform]\nsplit = { by = "f", glob = "${dir}/*.fq" }\nmap = "gzip -k {f}"\n`;
    const answers: string[] = [];
    for (const endpoint of ["prepare", "dag", "validate", "stats"]) {
      const answer = await post(endpoint, endpoint === "dag" ? { toml_content: text(`file_exists("${dir}/LEAKED-ONE.fq")`), expanded: true } : { toml_content: text(`file_exists("${dir}/LEAKED-ONE.fq")`) });
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
      answers.push(JSON.stringify(answer.json));
    }
    expect(answers.join("\n")).not.toContain("LEAKED");
    const validated = await post("validate", { toml_content: text(`file_exists("${dir}/LEAKED-ONE.fq")`) });
    const notes = (validated.json.warnings as { code: string; message: string }[]).filter((finding) => finding.code === "SOURCE_NOT_READ").map((finding) => finding.message);
    expect(notes).toEqual(expect.arrayContaining([expect.stringMatching(/split\.glob are not listed/), expect.stringMatching(/file_exists .* is false/)]));
    // A file that exists and one that does not: the same answers.
    const present = await post("prepare", { toml_content: text(`file_exists("${dir}/LEAKED-ONE.fq")`) });
    const absent = await post("prepare", { toml_content: text(`file_exists("${dir}/NOTHING.fq")`) });
    expect(JSON.stringify(present.json).replaceAll("LEAKED-ONE", "X")).toBe(JSON.stringify(absent.json).replaceAll("NOTHING", "X"));
  });
});
