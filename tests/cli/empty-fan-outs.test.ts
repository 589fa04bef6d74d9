/**
 * Through the command line: `strand validate` and `strand dry-run` say the same thing about every case of
 * the fan-out table (tests/support/empty-fan-out-cases.ts); `graph --expanded` and `run` accept a branch
 * switched off by an empty scatter, and `when` on its gather switches the gather off too.
 */
import { existsSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { FAN_OUT_CASES } from "../support/empty-fan-out-cases.js";
import { parseJson, runStrand, tempFolder, type TempFolder } from "../support/strand-cli.js";

interface Envelope {
  ok: boolean;
  data: { plan?: { name: string }[] } | null;
  findings: { code: string; severity: string; message: string; rule: string | null; line: number | null; file: string | null }[];
}

const FAN_OUT_CODES = new Set(["W027", "E005", "EXPAND_ERROR"]);
const folders: TempFolder[] = [];
afterAll(() => folders.forEach((folder) => folder.remove()));

function folderWith(files: Record<string, string>): TempFolder {
  const folder = tempFolder(files, "strand-fan-out-");
  folders.push(folder);
  return folder;
}

const fanOutFindings = (envelope: Envelope) => envelope.findings.filter((finding) => FAN_OUT_CODES.has(finding.code));

describe.concurrent("strand validate and strand dry-run agree on each fan-out case", () => {
  for (const fanOutCase of FAN_OUT_CASES) {
    it(fanOutCase.name, async () => {
      const folder = folderWith({ "main.oxoflow": fanOutCase.pipeline, ...fanOutCase.files });
      const [validate, dryRun] = await Promise.all([
        runStrand(["validate", "main.oxoflow", "--json"], { cwd: folder.dir }),
        runStrand(["dry-run", "main.oxoflow", "--json"], { cwd: folder.dir }),
      ]);
      const validated = fanOutFindings(parseJson<Envelope>(validate));
      const planned = parseJson<Envelope>(dryRun);
      if (fanOutCase.error) {
        expect(validate.exitCode).toBe(1);
        expect(dryRun.exitCode).toBe(1);
        expect(planned.findings[0]).toMatchObject({ code: fanOutCase.error.code, line: fanOutCase.error.line, message: fanOutCase.error.message });
        expect(validated[0]).toEqual(planned.findings[0]);
        return;
      }
      expect(validate.exitCode, validate.stdout).toBe(0);
      expect(dryRun.exitCode, dryRun.stderr).toBe(0);
      expect(planned.data!.plan!.map((job) => job.name).sort()).toEqual([...fanOutCase.jobs!].sort());
      expect(fanOutFindings(planned).map((finding) => [finding.rule, finding.line])).toEqual(fanOutCase.switchedOff);
      expect(validated).toEqual(fanOutFindings(planned));
    });
  }
});

describe("a branch switched off by an empty scatter", () => {
  const pipeline = FAN_OUT_CASES[1]!.pipeline;

  it("validate prints the W027 warning with the rule and line; graph --expanded draws the remaining jobs", async () => {
    const folder = folderWith({ "main.oxoflow": pipeline });
    const validate = await runStrand(["validate", "main.oxoflow"], { cwd: folder.dir });
    expect(validate.exitCode).toBe(0);
    expect(validate.stdout).toContain("warning [W027] main.oxoflow:14:1: scatter of rule 'call' has no values (config.chromosomes is empty)");
    expect(validate.stdout).toContain("(rule: call)");
    const graph = await runStrand(["graph", "main.oxoflow", "--expanded", "--json"], { cwd: folder.dir });
    expect(graph.exitCode, graph.stderr).toBe(0);
    expect(graph.stdout).toContain('"merge"');
    expect(graph.stdout).not.toContain('"call_');
  });

  it("run completes: the gather runs with no scattered inputs, as oxo-flow does", async () => {
    const folder = folderWith({ "main.oxoflow": pipeline });
    const run = await runStrand(["run", "main.oxoflow"], { cwd: folder.dir });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(readFileSync(folder.path("merged.vcf"), "utf8")).toBe("");
    expect(readFileSync(folder.path("report.txt"), "utf8").trim()).toBe("0");
  });

  it("when = \"config.chromosomes\" on the gather switches it off too, as the warning suggests", async () => {
    const gated = pipeline.replace('name = "merge"\n', 'name = "merge"\nwhen = "config.chromosomes"\n');
    const folder = folderWith({ "main.oxoflow": gated });
    const dryRun = await runStrand(["dry-run", "main.oxoflow"], { cwd: folder.dir });
    expect(dryRun.exitCode).toBe(0);
    expect(dryRun.stdout).toMatch(/merge {2}\[skip: when condition false\]/);
    const run = await runStrand(["run", "main.oxoflow", "-t", "merge"], { cwd: folder.dir });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(existsSync(folder.path("merged.vcf"))).toBe(false);
  });
});
