/**
 * Every command's `--json` output is the one envelope `{ok, command, data, findings}`: `ok` matches the exit
 * code, `command` names the command, `data` is its document and `findings` the problems that apply.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COHORT } from "../support/cli-pipelines.js";
import { parseEnvelope, runStrand, tempFolder, type TempFolder } from "../support/strand-cli.js";

const QUICK = `[workflow]
name = "quick"

[[rules]]
name = "hello"
output = ["hello.txt"]
shell = "echo hi > hello.txt"
`;

let folder: TempFolder;
beforeAll(() => {
  folder = tempFolder({
    "main.oxoflow": COHORT,
    "other.oxoflow": COHORT.replace('genome = "hg38"', 'genome = "hg19"'),
    "quick/main.oxoflow": QUICK,
    "broken.oxoflow": '[workflow]\nname = "broken"\n\n[[rules]]\nname = "a"\nshell = "echo {config.missing}"\n',
  });
});
afterAll(() => folder.remove());

const strand = (...args: string[]) => runStrand([...args, "--json"], { cwd: folder.dir });

/** [command line, expected `command` field, expected ok]: one or more cases per command that accepts --json. */
const CASES: [string[], string, boolean][] = [
  [["validate", "main.oxoflow"], "validate", true],
  [["validate", "broken.oxoflow"], "validate", false],
  [["lint", "main.oxoflow"], "lint", true],
  [["format", "main.oxoflow"], "format", true],
  [["graph", "main.oxoflow"], "graph", true],
  [["dry-run", "main.oxoflow"], "dry-run", true],
  [["debug", "main.oxoflow"], "debug", true],
  [["config", "show", "main.oxoflow"], "config", true],
  [["config", "stats", "main.oxoflow"], "config", true],
  [["config", "get", "genome", "main.oxoflow"], "config", true],
  [["config", "get", "nothing", "main.oxoflow"], "config", false],
  [["diff", "main.oxoflow", "other.oxoflow"], "diff", true],
  [["export", "main.oxoflow", "-f", "docker"], "export", true],
  [["schema"], "schema", true],
  [["template"], "template", true],
  [["template", "hello-world"], "template", true],
  [["license"], "license", true],
  [["status", "quick"], "status", true],
  [["cluster", "submit", "main.oxoflow", "-b", "slurm", "--dry-run"], "cluster submit", true],
  [["graph", "main.oxoflow", "-f", "png"], "graph", false],
];

describe.concurrent("the --json envelope of every command", () => {
  for (const [argv, command, ok] of CASES) {
    it(`strand ${argv.join(" ")} --json`, async () => {
      const result = await strand(...argv);
      const envelope = parseEnvelope(result);
      expect(envelope.command).toBe(command);
      expect(envelope.ok).toBe(ok);
      if (ok) expect(envelope.data).not.toBeNull();
      for (const finding of envelope.findings) expect(Object.keys(finding).sort()).toEqual(["code", "column", "file", "line", "message", "rule", "severity", "suggestion"]);
      if (!ok) expect(envelope.findings.some((finding) => finding.severity === "error")).toBe(true);
    });
  }

  it("strand run --json: the run's summary as data", async () => {
    const run = await runStrand(["run", "--json"], { cwd: folder.path("quick") });
    const envelope = parseEnvelope<{ status: string; results: { succeeded: number } }>(run);
    expect(envelope).toMatchObject({ ok: true, command: "run", data: { status: "completed", results: { succeeded: 1 } }, findings: [] });
  });

  it("an error in a validated pipeline is a finding with its position", async () => {
    const envelope = parseEnvelope(await strand("validate", "broken.oxoflow"));
    expect(envelope.findings.find((finding) => finding.code === "E005")).toMatchObject({ severity: "error", file: "broken.oxoflow", rule: "a" });
  });
});
