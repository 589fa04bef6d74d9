/**
 * `strand validate`: the success line, E-code error lines with positions, the JSON document, parse errors,
 * missing inputs and `--as-include`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Finding } from "../../src/engine/findings.js";
import { COHORT, CYCLE, SYNTAX_ERROR, UNDEFINED_CONFIG } from "../support/cli-pipelines.js";
import { parseEnvelope, runStrand, stackTraceLines, type StrandResult, tempFolder, type TempFolder } from "../support/strand-cli.js";

type JsonFinding = Finding;

interface ValidateJson {
  command: string;
  workflow: string;
  valid: boolean;
  rules: number;
  dependencies: number;
  errors: JsonFinding[];
  warnings: JsonFinding[];
  missing_inputs: string[];
}

/** The validate envelope read back in one object: its data, the command name, and the findings split by severity. */
function validateJson(result: StrandResult): ValidateJson {
  const envelope = parseEnvelope<Omit<ValidateJson, "command" | "errors" | "warnings">>(result);
  const findings = envelope.findings as JsonFinding[];
  return { ...envelope.data, command: envelope.command, errors: findings.filter((f) => f.severity === "error"), warnings: findings.filter((f) => f.severity !== "error") };
}

const MISSING_INPUT = `[workflow]
name = "needs-input"

[[rules]]
name = "count"
input = ["data/reads.txt"]
output = ["count.txt"]
shell = "wc -l {input} > {output}"
`;

const INCLUDE_MODULE = `[workflow]
name = "module"

[[rules]]
name = "qc"
input = ["raw/sample.fq"]
output = ["qc/sample.html"]
shell = "fastqc {input} -o qc"
`;

const MANY_ERRORS = `[workflow]
name = "many"

[[rules]]
name = "bad name!"
output = ["../outside.txt"]
shell = "echo {config.nope} > {output}"
depends_on = ["ghost"]
`;

let folder: TempFolder;
beforeAll(() => {
  folder = tempFolder({
    "main.oxoflow": COHORT,
    "broken.oxoflow": UNDEFINED_CONFIG,
    "syntax.oxoflow": SYNTAX_ERROR,
    "cycle.oxoflow": CYCLE,
    "missing.oxoflow": MISSING_INPUT,
    "module.oxoflow": INCLUDE_MODULE,
    "many.oxoflow": MANY_ERRORS,
    "empty.oxoflow": `[workflow]\nname = "nothing"\n`,
  });
});
afterAll(() => folder.remove());

const validate = (...args: string[]) => runStrand(["validate", ...args], { cwd: folder.dir });

describe("strand validate (text)", () => {
  it("a valid pipeline prints ✓ with rule and dependency counts and exits 0", async () => {
    const result = await validate("main.oxoflow");
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim()).toBe("✓ main.oxoflow — 3 rules, 2 dependencies");
    expect(result.stderr).toBe("");
  });

  it("an undefined config key is E005 with file:line:col, rule and hint, exit 1", async () => {
    const result = await validate("broken.oxoflow");
    expect(result.exitCode).toBe(1);
    const text = result.stdout + result.stderr;
    expect(text).toContain("✗ broken.oxoflow — 1 error(s)");
    expect(text).toMatch(/^ {2}error \[E005\] broken\.oxoflow:7:1: rule 'a' uses config\.missing in shell, but \[config\] has no key 'missing' \(rule: a\)$/m);
    expect(text).toMatch(/^ {4}hint: .*--arg missing=/m);
  });

  it("every error of a file is listed, each with its code and position", async () => {
    const result = await validate("many.oxoflow");
    expect(result.exitCode).toBe(1);
    const text = result.stdout + result.stderr;
    const codes = [...text.matchAll(/^ {2}error \[(E\d{3})\] many\.oxoflow:(\d+):(\d+): /gm)].map((match) => match[1]);
    expect(codes).toEqual(expect.arrayContaining(["E002", "E005", "E007", "E009"]));
    expect(text).toMatch(/✗ many\.oxoflow — \d+ error\(s\)/);
  });

  it("a cycle is E006 and exits 1", async () => {
    const result = await validate("cycle.oxoflow");
    expect(result.exitCode).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/error \[E006\] cycle\.oxoflow:\d+:\d+: DAG error: cycle detected in workflow DAG: (a → b → a|b → a → b)/);
  });

  it("a TOML syntax error names the line and column and exits 1", async () => {
    const result = await validate("syntax.oxoflow");
    expect(result.exitCode).toBe(1);
    const text = result.stdout + result.stderr;
    expect(text).toContain("✗ syntax.oxoflow — could not be loaded");
    expect(text).toMatch(/error \[PARSE_ERROR\] syntax\.oxoflow:6:1: TOML syntax error/);
    expect(stackTraceLines(result.stderr)).toEqual([]);
  });

  it("an input nobody produces is listed as a warning, not an error", async () => {
    const result = await validate("missing.oxoflow");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("✓ missing.oxoflow — 1 rules, 0 dependencies");
    expect(result.stdout).toMatch(/warning.*1 input\(s\) do not exist yet and no rule produces them: data\/reads\.txt/);
  });

  it("--quiet leaves out the missing-inputs warning", async () => {
    const result = await validate("missing.oxoflow", "--quiet");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).not.toContain("do not exist yet");
  });

  it("a workflow with zero rules is valid, with a warning", async () => {
    const result = await validate("empty.oxoflow");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("✓ empty.oxoflow — 0 rules, 0 dependencies");
    expect(result.stdout).toContain("no rules");
  });

  it("file names are shown relative to the current folder", async () => {
    const result = await runStrand(["validate", folder.path("main.oxoflow")], { cwd: folder.dir });
    expect(result.stdout.trim()).toBe("✓ main.oxoflow — 3 rules, 2 dependencies");
  });
});

describe("strand validate --json", () => {
  it("a valid pipeline: the documented shape", async () => {
    const result = await validate("main.oxoflow", "--json");
    expect(result.exitCode).toBe(0);
    const envelope = parseEnvelope(result);
    expect(envelope).toEqual({
      ok: true,
      command: "validate",
      data: { workflow: "main.oxoflow", valid: true, rules: 3, dependencies: 2, error_count: 0, warning_count: envelope.findings.length, missing_inputs: expect.any(Array) },
      findings: expect.any(Array),
    });
    expect(envelope.findings.every((finding) => finding.severity !== "error")).toBe(true);
  });

  it("errors carry code, severity, message, rule, suggestion, line, column and file", async () => {
    const result = await validate("broken.oxoflow", "--json");
    expect(result.exitCode).toBe(1);
    const body = validateJson(result);
    expect(body.command).toBe("validate");
    expect(body.workflow).toBe("broken.oxoflow");
    expect(body.valid).toBe(false);
    expect(body.rules).toBe(1);
    expect(body.errors).toEqual([
      {
        code: "E005",
        severity: "error",
        message: "rule 'a' uses config.missing in shell, but [config] has no key 'missing'",
        rule: "a",
        suggestion: expect.stringContaining("missing"),
        line: 7,
        column: 1,
        file: "broken.oxoflow",
      },
    ]);
    expect(body.warnings).toEqual([]);
    expect(body.missing_inputs).toEqual([]);
  });

  it("a TOML syntax error is a PARSE_ERROR with its position", async () => {
    const result = await validate("syntax.oxoflow", "--json");
    expect(result.exitCode).toBe(1);
    const body = validateJson(result);
    expect(body.valid).toBe(false);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({ code: "PARSE_ERROR", severity: "error", line: 6, column: 1, file: "syntax.oxoflow" });
    expect(body.errors[0]!.message).toContain("TOML syntax error");
  });

  it("missing inputs are listed", async () => {
    const body = validateJson(await validate("missing.oxoflow", "--json"));
    expect(body.valid).toBe(true);
    expect(body.missing_inputs).toEqual(["data/reads.txt"]);
  });

  it("once a missing input exists, it is no longer listed", async () => {
    const local = tempFolder({ "main.oxoflow": MISSING_INPUT, "data/reads.txt": "r1\n" });
    try {
      const body = validateJson(await runStrand(["validate", "--json"], { cwd: local.dir }));
      expect(body.missing_inputs).toEqual([]);
    } finally {
      local.remove();
    }
  });
});

describe("strand validate --as-include", () => {
  it("skips the missing-input list for a module meant to be included", async () => {
    const plain = validateJson(await validate("module.oxoflow", "--json"));
    expect(plain.missing_inputs).toEqual(["raw/sample.fq"]);
    const result = await validate("module.oxoflow", "--as-include", "--json");
    expect(result.exitCode).toBe(0);
    const body = validateJson(result);
    expect(body.valid).toBe(true);
    expect(body.missing_inputs).toEqual([]);
  });

  it("still reports real errors", async () => {
    const result = await validate("broken.oxoflow", "--as-include");
    expect(result.exitCode).toBe(1);
    expect(result.stdout + result.stderr).toContain("[E005]");
  });
});
