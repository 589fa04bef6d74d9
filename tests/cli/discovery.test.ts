/**
 * Workflow auto-discovery: a folder (or nothing) means its main.oxoflow, else the alphabetically first
 * *.oxoflow; a folder without any is an error (exit 1).
 */
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAIN, COHORT } from "../support/cli-pipelines.js";
import { parseData, parseEnvelope, parseJson, runStrand, stackTraceLines, tempFolder, type TempFolder } from "../support/strand-cli.js";

const named = (name: string) => CHAIN.replace('name = "chain"', `name = "${name}"`);

let folder: TempFolder;
beforeAll(() => {
  folder = tempFolder({
    "with-main/main.oxoflow": COHORT,
    "with-main/aaa.oxoflow": named("aaa"),
    "no-main/zeta.oxoflow": named("zeta"),
    "no-main/beta.oxoflow": named("beta"),
    "no-main/notes.txt": "not a pipeline",
  });
  mkdirSync(folder.path("empty"));
});
afterAll(() => folder.remove());

describe.concurrent("workflow discovery", () => {
  it("a folder argument uses its main.oxoflow, even when other files sort first", async () => {
    const result = await runStrand(["validate", "with-main"], { cwd: folder.dir });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("✓ with-main/main.oxoflow — 3 rules");
  });

  it("without main.oxoflow, the alphabetically first *.oxoflow", async () => {
    const result = await runStrand(["validate", "no-main"], { cwd: folder.dir });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("✓ no-main/beta.oxoflow — 3 rules");
  });

  it("no argument means the current folder", async () => {
    const [plan, graph] = await Promise.all([
      runStrand(["dry-run", "--json"], { cwd: folder.path("no-main") }),
      runStrand(["graph", "-f", "json"], { cwd: folder.path("with-main") }),
    ]);
    expect(parseData<{ workflow: string }>(plan).workflow).toBe("beta.oxoflow");
    expect(parseJson<{ nodes: unknown[] }>(graph).nodes).toHaveLength(3);
  });

  it("every command that takes a workflow discovers it the same way", async () => {
    const cwd = folder.path("with-main");
    const results = await Promise.all([
      runStrand(["validate"], { cwd }),
      runStrand(["lint"], { cwd }),
      runStrand(["format", "--check"], { cwd }),
      runStrand(["debug"], { cwd }),
      runStrand(["config", "show"], { cwd }),
      runStrand(["export"], { cwd }),
    ]);
    expect(results.map((result) => result.exitCode)).toEqual([0, 0, 1, 0, 0, 0]);
    expect(results[2]!.stdout).toContain("main.oxoflow needs formatting");
  });

  it("a folder without any .oxoflow file is an error (exit 1)", async () => {
    const result = await runStrand(["validate", "empty"], { cwd: folder.dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("no main.oxoflow and no *.oxoflow file");
    expect(stackTraceLines(result.stderr)).toEqual([]);
  });

  it("running in such a folder without an argument is the same error", async () => {
    const results = await Promise.all(["validate", "dry-run", "lint", "debug", "graph"].map((command) => runStrand([command], { cwd: folder.path("empty") })));
    for (const result of results) {
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain("no workflow in the current folder");
    }
  });

  it("a path that does not exist is an error (exit 1)", async () => {
    const result = await runStrand(["dry-run", "missing.oxoflow"], { cwd: folder.dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("no such workflow file or folder: missing.oxoflow");
  });

  it("the not-found error is JSON with --json", async () => {
    const result = await runStrand(["validate", "empty", "--json"], { cwd: folder.dir });
    expect(result.exitCode).toBe(1);
    const body = parseEnvelope(result);
    expect(body).toMatchObject({ ok: false, command: "validate", data: null });
    expect(body.findings.map((finding) => finding.code)).toEqual(["IO_ERROR"]);
  });
});
