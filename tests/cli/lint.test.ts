/**
 * `strand lint`: findings of every severity, the Summary line, `--strict` and the JSON document.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COHORT, SYNTAX_ERROR, UNDEFINED_CONFIG, WARNINGS_ONLY } from "../support/cli-pipelines.js";
import { parseEnvelope, runStrand, stackTraceLines, type StrandResult, tempFolder, type TempFolder } from "../support/strand-cli.js";

interface LintJson {
  command: string;
  workflow: string;
  strict: boolean;
  diagnostics: { code: string; severity: "error" | "warning" | "info"; message: string; rule: string | null; suggestion: string | null; line: number | null; column: number | null; file: string | null }[];
  error_count: number;
  warning_count: number;
  info_count: number;
  passed: boolean;
}

/** The lint envelope read back in one object: its data, the command name, and the findings as diagnostics. */
function lintJson(result: StrandResult): LintJson {
  const envelope = parseEnvelope<Omit<LintJson, "command" | "diagnostics">>(result);
  return { ...envelope.data, command: envelope.command, diagnostics: envelope.findings as LintJson["diagnostics"] };
}

const SUMMARY = /^Summary: (\d+) error\(s\), (\d+) warning\(s\), (\d+) info$/m;

let folder: TempFolder;
beforeAll(() => {
  folder = tempFolder({
    "main.oxoflow": COHORT,
    "warn.oxoflow": WARNINGS_ONLY,
    "broken.oxoflow": UNDEFINED_CONFIG,
    "syntax.oxoflow": SYNTAX_ERROR,
    "unknown-key.oxoflow": WARNINGS_ONLY.replace('name = "only"', 'name = "only"\nthreds = 4'),
  });
});
afterAll(() => folder.remove());

const lint = (...args: string[]) => runStrand(["lint", ...args], { cwd: folder.dir });

function summary(text: string): [number, number, number] {
  const match = SUMMARY.exec(text);
  if (!match) throw new Error(`no Summary line in:\n${text}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

describe.concurrent("strand lint (text)", () => {
  it("a clean pipeline: info findings only, exit 0", async () => {
    const result = await lint("main.oxoflow");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^main\.oxoflow:$/m);
    expect(summary(result.stdout)).toEqual([0, 0, 4]);
    expect(result.stdout).toMatch(/^ {2}info \[W008\] main\.oxoflow:\d+:\d+: rule 'align' runs in the system environment \(rule: align\)$/m);
  });

  it("warnings are listed before infos and do not fail without --strict", async () => {
    const result = await lint("warn.oxoflow");
    expect(result.exitCode).toBe(0);
    const [errors, warnings] = summary(result.stdout);
    expect(errors).toBe(0);
    expect(warnings).toBe(2);
    expect(result.stdout).toMatch(/warning \[W001\] warn\.oxoflow:1:1: the workflow has no description/);
    expect(result.stdout).toMatch(/warning \[W002\] warn\.oxoflow:1:1: the workflow has no author/);
    const lines = result.stdout.split("\n");
    const lastWarning = lines.map((line) => line.startsWith("  warning")).lastIndexOf(true);
    const firstInfo = lines.findIndex((line) => line.startsWith("  info"));
    expect(lastWarning).toBeLessThan(firstInfo);
  });

  it("--strict fails on warnings", async () => {
    const result = await lint("warn.oxoflow", "--strict");
    expect(result.exitCode).toBe(1);
    expect(summary(result.stdout)[1]).toBe(2);
  });

  it("--strict does not fail on info findings", async () => {
    const result = await lint("main.oxoflow", "--strict");
    expect(result.exitCode).toBe(0);
  });

  it("validation errors are lint errors: exit 1", async () => {
    const result = await lint("broken.oxoflow");
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/^ {2}error \[E005\] broken\.oxoflow:7:1: /m);
    expect(summary(result.stdout)[0]).toBe(1);
  });

  it("an unknown rule key is named with the nearest known key", async () => {
    const result = await lint("unknown-key.oxoflow");
    expect(result.stdout).toContain("threds");
    expect(result.stdout).toContain("threads");
  });

  it("a file that cannot be parsed: one error, a Summary line, exit 1", async () => {
    const result = await lint("syntax.oxoflow");
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/error \[PARSE_ERROR\] syntax\.oxoflow:6:1:/);
    expect(summary(result.stdout)).toEqual([1, 0, 0]);
    expect(stackTraceLines(result.stderr)).toEqual([]);
  });

  it("--quiet leaves out info findings but keeps the counts", async () => {
    const result = await lint("main.oxoflow", "--quiet");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain("  info [");
    expect(summary(result.stdout)).toEqual([0, 0, 4]);
  });
});

describe.concurrent("strand lint --json", () => {
  it("has the documented shape and counts that match the diagnostics", async () => {
    const result = await lint("warn.oxoflow", "--json");
    expect(result.exitCode).toBe(0);
    const body = lintJson(result);
    expect(body.command).toBe("lint");
    expect(body.workflow).toBe("warn.oxoflow");
    expect(body.strict).toBe(false);
    expect(body.passed).toBe(true);
    expect(body.error_count).toBe(body.diagnostics.filter((d) => d.severity === "error").length);
    expect(body.warning_count).toBe(body.diagnostics.filter((d) => d.severity === "warning").length);
    expect(body.info_count).toBe(body.diagnostics.filter((d) => d.severity === "info").length);
    expect(body.warning_count).toBe(2);
    for (const diagnostic of body.diagnostics) {
      expect(Object.keys(diagnostic).sort()).toEqual(["code", "column", "file", "line", "message", "rule", "severity", "suggestion"]);
      expect(diagnostic.code).toMatch(/^[A-Z]+\d+$/);
    }
    expect(body.diagnostics.find((d) => d.code === "W001")).toMatchObject({ severity: "warning", rule: null, file: "warn.oxoflow", line: 1 });
  });

  it("--strict --json: strict true, passed false, exit 1", async () => {
    const result = await lint("warn.oxoflow", "--strict", "--json");
    expect(result.exitCode).toBe(1);
    const body = lintJson(result);
    expect(body.strict).toBe(true);
    expect(body.passed).toBe(false);
  });

  it("a parse failure is one PARSE_ERROR diagnostic", async () => {
    const result = await lint("syntax.oxoflow", "--json");
    expect(result.exitCode).toBe(1);
    const body = lintJson(result);
    expect(body.passed).toBe(false);
    expect(body.error_count).toBe(1);
    expect(body.diagnostics[0]).toMatchObject({ code: "PARSE_ERROR", severity: "error", line: 6, column: 1 });
  });

  it("each finding is emitted once", async () => {
    const body = lintJson(await lint("main.oxoflow", "--json"));
    const keys = body.diagnostics.map((d) => `${d.code}|${d.rule}|${d.message}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
