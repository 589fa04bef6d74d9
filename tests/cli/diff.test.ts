/**
 * `strand diff A B`: categorised differences (always exit 0), "identical", JSON with a unified text diff.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COHORT, SYNTAX_ERROR } from "../support/cli-pipelines.js";
import { parseData, parseEnvelope, runStrand, tempFolder, type TempFolder } from "../support/strand-cli.js";

const CHANGED = COHORT.replace('genome = "hg38"', 'genome = "hg19"')
  .replace("bwa mem {config.mapper_args}", "bwa mem -t 4 {config.mapper_args}")
  .replace('version = "1.2.0"', 'version = "1.3.0"')
  .concat('\n[[rules]]\nname = "extra"\noutput = ["extra.txt"]\nshell = "touch {output}"\n');

interface DiffJson {
  command: string;
  a: string;
  b: string;
  identical: boolean;
  changes: { category: string; change: string; path: string; description: string; before?: unknown; after?: unknown }[];
  unified_diff: string;
}

let folder: TempFolder;
beforeAll(() => {
  folder = tempFolder({ "a.oxoflow": COHORT, "b.oxoflow": CHANGED, "copy.oxoflow": COHORT, "syntax.oxoflow": SYNTAX_ERROR, "dir/main.oxoflow": CHANGED });
});
afterAll(() => folder.remove());

const diff = (...args: string[]) => runStrand(["diff", ...args], { cwd: folder.dir });

describe.concurrent("strand diff", () => {
  it("lists the differences by category and exits 0", async () => {
    const result = await diff("a.oxoflow", "b.oxoflow");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Diff: 4 difference\(s\) between a\.oxoflow and b\.oxoflow:$/m);
    const lines = result.stdout.split("\n").filter((line) => line.startsWith("  • "));
    expect(lines).toEqual([
      '  • [workflow] version changed: "1.2.0" → "1.3.0"',
      '  • [rules] rule added: "extra"',
      '  • [rules] rule "align": shell command changed',
      '  • [config] config variable changed: "genome"',
    ]);
  });

  it("identical workflows: ✓ and exit 0", async () => {
    const result = await diff("a.oxoflow", "copy.oxoflow");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("✓ Workflows are identical");
  });

  it("--json: the changes with before/after values and a unified diff", async () => {
    const result = await diff("a.oxoflow", "b.oxoflow", "--json");
    expect(result.exitCode).toBe(0);
    expect(parseEnvelope(result)).toMatchObject({ ok: true, command: "diff", findings: [] });
    const body = parseData<DiffJson>(result);
    expect(body).toMatchObject({ a: "a.oxoflow", b: "b.oxoflow", identical: false });
    expect(body.changes.map((change) => change.category)).toEqual(["workflow", "rules", "rules", "config"]);
    expect(body.changes.find((change) => change.path === "config.genome")).toMatchObject({ change: "changed", before: "hg38", after: "hg19" });
    expect(body.unified_diff).toContain("--- a.oxoflow");
    expect(body.unified_diff).toContain("+++ b.oxoflow");
    expect(body.unified_diff).toContain('-genome = "hg38"');
    expect(body.unified_diff).toContain('+genome = "hg19"');
  });

  it("identical --json", async () => {
    const body = parseData<DiffJson>(await diff("a.oxoflow", "copy.oxoflow", "--json"));
    expect(body.identical).toBe(true);
    expect(body.changes).toEqual([]);
  });

  it("a folder argument means its main.oxoflow", async () => {
    const result = await diff("b.oxoflow", "dir");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("✓ Workflows are identical");
  });

  it("a file that cannot be parsed exits 1", async () => {
    const result = await diff("a.oxoflow", "syntax.oxoflow");
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("PARSE_ERROR");
  });

  it("a missing file exits 1", async () => {
    const result = await diff("a.oxoflow", "nope.oxoflow");
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("nope.oxoflow");
  });

  it("one workflow only is a usage error (exit 2)", async () => {
    const result = await diff("a.oxoflow");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("diff needs two workflows");
  });
});
