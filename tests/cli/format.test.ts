/**
 * `strand format`: canonical text on stdout, `-o FILE`, and `--check` (exit 0 when formatted, 1 when not).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COHORT, SYNTAX_ERROR } from "../support/cli-pipelines.js";
import { parseData, runStrand, stackTraceLines, tempFolder, type TempFolder } from "../support/strand-cli.js";

let folder: TempFolder;
beforeAll(() => {
  folder = tempFolder({ "main.oxoflow": COHORT, "syntax.oxoflow": SYNTAX_ERROR });
});
afterAll(() => folder.remove());

const strand = (...args: string[]) => runStrand(args, { cwd: folder.dir });

describe("strand format", () => {
  it("prints the canonical text on stdout and leaves the file alone", async () => {
    const result = await strand("format", "main.oxoflow");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toBe(COHORT);
    expect(result.stdout.startsWith("# Cohort demo\n[workflow]\n")).toBe(true);
    expect(result.stdout).toContain('name = "cohort-demo"');
    // Canonical order: [[sample_groups]] comes after the rules; rule keys in canonical order.
    expect(result.stdout.indexOf("[[sample_groups]]")).toBeGreaterThan(result.stdout.lastIndexOf("[[rules]]"));
    expect(readFileSync(folder.path("main.oxoflow"), "utf8")).toBe(COHORT);
  });

  it("--check fails (exit 1) on a file that is not formatted", async () => {
    const result = await strand("format", "main.oxoflow", "--check");
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain("✗ main.oxoflow needs formatting");
  });

  it("-o FILE writes the result; the written file passes --check and is stable", async () => {
    const written = await strand("format", "main.oxoflow", "-o", "formatted.oxoflow");
    expect(written.exitCode).toBe(0);
    expect(written.stderr).toContain("formatted.oxoflow");
    const first = readFileSync(folder.path("formatted.oxoflow"), "utf8");
    expect(first).toBe((await strand("format", "main.oxoflow")).stdout);

    const check = await strand("format", "formatted.oxoflow", "--check");
    expect(check.exitCode).toBe(0);
    expect(check.stdout).toContain("✓ formatted.oxoflow is already formatted");

    const again = await strand("format", "formatted.oxoflow");
    expect(again.stdout).toBe(first);
  });

  it("the formatted pipeline is the same pipeline: same validation and same plan", async () => {
    await strand("format", "main.oxoflow", "-o", "same.oxoflow");
    const [before, after] = await Promise.all([strand("dry-run", "main.oxoflow", "--json"), strand("dry-run", "same.oxoflow", "--json")]);
    type Plan = { plan: { name: string; command: string | null; status: string }[] };
    const strip = (body: Plan) => body.plan.map((job) => [job.name, job.command, job.status]);
    expect(strip(parseData<Plan>(after))).toEqual(strip(parseData<Plan>(before)));
    const validate = await strand("validate", "same.oxoflow");
    expect(validate.stdout).toContain("3 rules, 2 dependencies");
  });

  it("-o onto the input itself rewrites it in place", async () => {
    folder.write({ "inplace.oxoflow": COHORT });
    const result = await strand("format", "inplace.oxoflow", "-o", "inplace.oxoflow");
    expect(result.exitCode).toBe(0);
    expect((await strand("format", "inplace.oxoflow", "--check")).exitCode).toBe(0);
  });

  it("a file that cannot be parsed: exit 1 with the position, no stack trace", async () => {
    const [plain, check] = await Promise.all([strand("format", "syntax.oxoflow"), strand("format", "syntax.oxoflow", "--check")]);
    for (const result of [plain, check]) {
      expect(result.exitCode).toBe(1);
      expect(result.stdout + result.stderr).toMatch(/syntax\.oxoflow:6:1/);
      expect(stackTraceLines(result.stderr)).toEqual([]);
    }
  });
});
