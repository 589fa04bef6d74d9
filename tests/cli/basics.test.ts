/**
 * The command itself: help, version, unknown commands and options, and the 0/1/2 exit codes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COHORT } from "../support/cli-pipelines.js";
import { parseEnvelope, PROJECT_ROOT, runStrand, stackTraceLines, tempFolder, type TempFolder } from "../support/strand-cli.js";

const COMMANDS = ["validate", "lint", "format", "graph", "run", "status", "serve", "dry-run", "debug", "config", "diff", "export", "schema", "template", "license", "cluster"];

let folder: TempFolder;
beforeAll(() => {
  folder = tempFolder({ "main.oxoflow": COHORT });
});
afterAll(() => folder.remove());

describe("strand --help / --version", () => {
  it("--help lists every command and exits 0", async () => {
    const result = await runStrand(["--help"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("Usage: strand <command>");
    for (const command of COMMANDS) expect(result.stdout).toMatch(new RegExp(`^  ${command}\\s+\\S`, "m"));
    expect(result.stdout).toContain("Exit codes: 0 ok, 1 pipeline problems, 2 usage errors");
  });

  it("-h and help are the same as --help", async () => {
    const [short, word] = await Promise.all([runStrand(["-h"]), runStrand(["help"])]);
    expect(short.exitCode).toBe(0);
    expect(word.exitCode).toBe(0);
    expect(short.stdout).toContain("Commands:");
    expect(word.stdout).toBe(short.stdout);
  });

  it("--version prints the package version", async () => {
    const { version } = JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as { version: string };
    const [long, short] = await Promise.all([runStrand(["--version"]), runStrand(["-V"])]);
    expect(long.exitCode).toBe(0);
    expect(long.stdout.trim()).toBe(`strand ${version}`);
    expect(short.stdout).toBe(long.stdout);
  });

  it("no command at all prints the usage and exits 2", async () => {
    const result = await runStrand([]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toContain("Usage: strand <command>");
  });

  it.each(COMMANDS)("%s --help describes its options and exits 0", async (command) => {
    const result = await runStrand([command, "--help"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`strand ${command} — `);
    expect(result.stdout).toContain("Usage: strand " + command);
    expect(result.stdout).toContain("--json");
    expect(result.stderr).toBe("");
  });

  it("dry-run --help documents the config value forms", async () => {
    const result = await runStrand(["dry-run", "--help"]);
    expect(result.stdout).toContain("--arg KEY=VALUE");
    expect(result.stdout).toMatch(/-t, --target RULE/);
    expect(result.stdout).toContain("--samples LIST");
    expect(result.stdout).toContain("--profile NAME");
  });
});

describe("usage errors exit 2", () => {
  it("an unknown command names it and suggests a near one", async () => {
    const result = await runStrand(["validat"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("unknown command 'validat'");
    expect(result.stderr).toContain("did you mean 'validate'?");
    expect(result.stdout).toBe("");
  });

  it("an unknown command without a near one still exits 2", async () => {
    const result = await runStrand(["frobnicate"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
  });

  it("an unknown short option exits 2 with the usage line", async () => {
    const result = await runStrand(["validate", "-x", "main.oxoflow"], { cwd: folder.dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("unknown option -x");
    expect(result.stderr).toContain("Usage: strand validate");
  });

  it("an unknown long option on a command that loads a pipeline exits 2", async () => {
    const result = await runStrand(["lint", "main.oxoflow", "--no-such-flag"], { cwd: folder.dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("unknown option --no-such-flag");
  });

  it("an option without its value exits 2", async () => {
    const result = await runStrand(["dry-run", "main.oxoflow", "-t"], { cwd: folder.dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("-t needs a value");
  });

  it("a flag given a value exits 2", async () => {
    const result = await runStrand(["validate", "main.oxoflow", "--as-include=yes"], { cwd: folder.dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("--as-include does not take a value");
  });

  it("two workflows where one is expected exits 2", async () => {
    const result = await runStrand(["validate", "main.oxoflow", "other.oxoflow"], { cwd: folder.dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("expected one workflow");
  });

  it("usage errors with --json also print the JSON envelope, the error as its finding", async () => {
    const result = await runStrand(["graph", "main.oxoflow", "-f", "png", "--json"], { cwd: folder.dir });
    expect(result.exitCode).toBe(2);
    const body = parseEnvelope(result);
    expect(body).toMatchObject({ ok: false, command: "graph", data: null });
    expect(body.findings).toHaveLength(1);
    expect(body.findings[0]).toMatchObject({ code: "USAGE_ERROR", severity: "error" });
    expect(body.findings[0]!.message).toContain("png");
    expect(stackTraceLines(result.stderr)).toEqual([]);
  });
});
