/**
 * Bad input never produces a stack trace or an "internal error": every command, on every kind of broken
 * pipeline, ends with a message and exit code 1 (or 2 for usage). Also: a reader closing the pipe early
 * (`strand debug | head`) is not an error.
 */
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CYCLE, manySamples, SYNTAX_ERROR, UNDEFINED_CONFIG } from "../support/cli-pipelines.js";
import { runBash, runStrand, stackTraceLines, tempFolder, type StrandResult, type TempFolder } from "../support/strand-cli.js";

/** Files that fail while loading: every command stops in the same loader, so fewer commands are tried. */
const LOAD_FAILURES: Record<string, string> = {
  "syntax.oxoflow": SYNTAX_ERROR,
  "binary.oxoflow": "\u0000\u0001\u0002 not toml at all \u00ff",
  "empty-file.oxoflow": "",
  "no-workflow.oxoflow": '[[rules]]\nname = "a"\n',
  "wrong-types.oxoflow": 'workflow = 3\nrules = "x"\n',
  "input-string.oxoflow": '[workflow]\nname = "x"\n[[rules]]\nname = "a"\ninput = "x"\noutput = ["o"]\nshell = "x"\n',
  "duplicate.oxoflow": '[workflow]\nname = "x"\n[[rules]]\nname = "a"\noutput = ["o"]\nshell = "x"\n[[rules]]\nname = "a"\noutput = ["p"]\nshell = "x"\n',
  "missing-include.oxoflow": '[workflow]\nname = "x"\n[[include]]\npath = "nope.oxoflow"\n',
  "missing-groups-file.oxoflow": '[workflow]\nname = "x"\nsample_groups_file = "nope.tsv"\n[[rules]]\nname = "a"\noutput = ["{sample}.txt"]\nshell = "x"\n',
  "bad-transform.oxoflow": '[workflow]\nname = "x"\n[[rules]]\nname = "a"\noutput = ["o"]\ntransform = { map = "x" }\n',
  "deep.oxoflow": `[workflow]\nname = "x"\n[config]\nv = ${"[".repeat(200)}${"]".repeat(200)}\n`,
};

/** Files that load but fail later: in checks, expansion, the graph or rendering. */
const LATER_FAILURES: Record<string, string> = {
  "undefined-config.oxoflow": UNDEFINED_CONFIG,
  "cycle.oxoflow": CYCLE,
  "no-shell.oxoflow": '[workflow]\nname = "x"\n[[rules]]\nname = "a"\noutput = ["o"]\n',
  "bad-values.oxoflow": '[workflow]\nname = "x"\n[[values]]\nname = "v"\nvalues_from = "config.nope"\n[[rules]]\nname = "a"\noutput = ["{v}.txt"]\nshell = "x"\n',
  "bad-scatter.oxoflow": '[workflow]\nname = "x"\n[[rules]]\nname = "a"\noutput = ["o"]\nshell = "x"\nscatter = { variable = "c" }\n',
  "bad-when.oxoflow": '[workflow]\nname = "x"\n[[rules]]\nname = "a"\noutput = ["o"]\nshell = "x"\nwhen = "config.x == (("\n',
  "dangerous.oxoflow": '[workflow]\nname = "x"\n[[rules]]\nname = "a b!"\noutput = ["../o"]\nshell = "rm -rf / "\nthreads = 0\nmemory = "lots"\n',
};

/** The first two are validate and dry-run; the loader-path commands come first. */
const LOAD_COMMANDS: string[][] = [["validate"], ["dry-run"], ["validate", "--json", "--as-include"], ["lint", "--json"], ["format", "--check"]];
const ALL_COMMANDS: string[][] = [...LOAD_COMMANDS, ["graph", "--expanded", "-f", "json"], ["debug", "--json"], ["config", "stats"], ["export"]];

async function expectCleanFailures(file: string, commands: string[][]): Promise<void> {
  const results = await Promise.all(commands.map((command) => runStrand(command[0] === "config" ? [...command, file] : [command[0]!, file, ...command.slice(1)], { cwd: folder.dir })));
  results.forEach((result, i) => {
    const label = `strand ${commands[i]!.join(" ")} ${file}\n--- stdout:\n${result.stdout}\n--- stderr:\n${result.stderr}`;
    expect(stackTraceLines(result.stderr), label).toEqual([]);
    expect(stackTraceLines(result.stdout), label).toEqual([]);
    expect(result.stdout + result.stderr, label).not.toMatch(/internal error|"INTERNAL"/);
    expect([0, 1, 2], label).toContain(result.exitCode);
  });
  // Every broken file fails validation or planning; none is silently fine everywhere.
  const [validate, plan] = results as [StrandResult, StrandResult];
  expect(validate.exitCode + plan.exitCode, `${file}: validate and dry-run both succeeded`).toBeGreaterThan(0);
}

let folder: TempFolder;
beforeAll(() => {
  folder = tempFolder({ ...LOAD_FAILURES, ...LATER_FAILURES });
  mkdirSync(folder.path("folder.oxoflow"));
});
afterAll(() => folder.remove());

describe.concurrent("bad input: no stack traces, exit codes 0/1/2", () => {
  it.each(Object.keys(LOAD_FAILURES).concat("folder.oxoflow"))("%s (fails to load)", (file) => expectCleanFailures(file, LOAD_COMMANDS));
  it.each(Object.keys(LATER_FAILURES))("%s (fails after loading)", (file) => expectCleanFailures(file, ALL_COMMANDS));
});

describe("a closed output pipe", () => {
  it("strand debug | head -1 stops quietly, without EPIPE stack traces", async () => {
    folder.write({ "many.oxoflow": manySamples(3000) });
    const result = await runBash('"$STRAND" debug many.oxoflow | head -n 1; echo "strand exit: ${PIPESTATUS[0]}"', { cwd: folder.dir });
    expect(result.stdout).toMatch(/^── count_reads_all_S00001/);
    expect(result.stdout).toContain("strand exit: 0");
    expect(result.stderr).not.toContain("EPIPE");
    expect(stackTraceLines(result.stderr)).toEqual([]);
  });

  it("strand dry-run | grep -q stops quietly", async () => {
    folder.write({ "many.oxoflow": manySamples(3000) });
    const result = await runBash('"$STRAND" dry-run many.oxoflow 2>&1 | grep -q "would execute"; echo "grep: $? strand: ${PIPESTATUS[0]}"', { cwd: folder.dir });
    expect(result.stdout).toContain("grep: 0 strand: 0");
    expect(stackTraceLines(result.stdout)).toEqual([]);
  });
});
