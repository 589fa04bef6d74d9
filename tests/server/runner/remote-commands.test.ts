/**
 * The commands the service sends to a login node, attacked: a workspace path, engine arguments and
 * environment values holding quotes, `$()`, backticks, semicolons and new lines are run here by a real `sh`
 * exactly as a login node would run them, and must reach the engine as the same words — with nothing
 * executed on the way. Process ids that are not numbers never become a command.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { aliveCommand, engineJobScript, hashCommand, JOB_WRAPPER_SCRIPT, killGroupCommand, remoteRunFiles, signalCommand, startCommand, submitEngineJobCommand, WRAPPER_SCRIPT } from "../../../src/server/runner/remote/remote-commands.js";

const root = mkdtempSync(join(tmpdir(), "strand-remote-commands-"));
const marker = join(root, "pwned");
const HOSTILE = [`it's`, `$(touch ${marker})`, `\`touch ${marker}\``, `a; touch ${marker}`, `line one\nline two`, `--rerun`, `"double"`, `$HOME`, `*`, ""];

afterAll(() => rmSync(root, { recursive: true, force: true }));

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe("the commands sent to a login node", () => {
  it("start the engine with every argument, environment value and path as written, running nothing on the way", async () => {
    const workspace = join(root, `work 'space' $(touch ${marker})\nnext`);
    const files = remoteRunFiles(workspace, "run-1");
    mkdirSync(files.dir, { recursive: true });
    writeFileSync(files.wrapper, WRAPPER_SCRIPT, { mode: 0o700 });
    // The "engine": records its arguments, its working folder and one environment value.
    const engine = join(root, "engine.cjs");
    writeFileSync(engine, `require("fs").writeFileSync(process.argv[2], JSON.stringify({ args: process.argv.slice(3), cwd: process.cwd(), value: process.env.STRAND_TEST_VALUE }));\n`);
    const report = join(files.dir, "report.json");
    const started = await execa("sh", ["-c", startCommand(files, [process.execPath, engine, report, ...HOSTILE], { STRAND_TEST_VALUE: HOSTILE.join(" | ") })]);
    expect(Number(started.stdout.trim())).toBeGreaterThan(1);
    await until(() => existsSync(files.exitCode));
    expect(readFileSync(files.exitCode, "utf8").trim()).toBe("0");
    expect(JSON.parse(readFileSync(report, "utf8"))).toEqual({ args: HOSTILE, cwd: workspace, value: HOSTILE.join(" | ") });
    expect(readFileSync(files.wrapperPid, "utf8").trim()).toBe(started.stdout.trim());
    expect(existsSync(marker)).toBe(false);
  });

  it("refuse environment names that are not names", () => {
    const files = remoteRunFiles("/w", "r");
    expect(() => startCommand(files, ["strand"], { "A=1; touch x; B": "v" })).toThrow(/not an environment variable name/);
  });

  it("hash files whose names hold shell syntax, one line per name, in order", async () => {
    const names = [`a 'b'`, "$(touch pwned)", "`touch pwned`", `new\nline`].map((name) => join(root, name));
    names.forEach((path, index) => writeFileSync(path, `content ${index}`));
    const result = await execa("sh", ["-c", hashCommand([...names, join(root, "missing")])], { cwd: root });
    const lines = result.stdout.split("\n");
    expect(lines).toHaveLength(5);
    expect(lines.slice(0, 4).every((line) => /^[0-9a-f]{64}$/.test(line))).toBe(true);
    expect(new Set(lines.slice(0, 4)).size).toBe(4);
    expect(lines[4]).toBe("-");
    expect(existsSync(marker)).toBe(false);
  });

  it("take only real process ids for signals, kills and liveness", () => {
    for (const pid of [Number.NaN, 0, 1, -5, 1.5, Number.MAX_SAFE_INTEGER + 2]) {
      expect(() => signalCommand(pid, "TERM")).toThrow(/not a process id/);
      expect(() => killGroupCommand(pid)).toThrow(/not a process id/);
      expect(() => aliveCommand(pid, "/w")).toThrow(/not a process id/);
    }
    expect(signalCommand(1234, "USR1")).toBe("kill -USR1 1234");
  });

  it("run an engine job's script with every argument, environment value and path as written, and the login node's PATH", async () => {
    const workspace = join(root, `job 'space' $(touch ${marker})\nnext`);
    const files = remoteRunFiles(workspace, "run-job");
    mkdirSync(files.dir, { recursive: true });
    writeFileSync(files.wrapper, JOB_WRAPPER_SCRIPT, { mode: 0o700 });
    const engine = join(root, "job-engine.cjs");
    writeFileSync(engine, `require("fs").writeFileSync(process.argv[2], JSON.stringify({ args: process.argv.slice(3), cwd: process.cwd(), value: process.env.STRAND_TEST_VALUE, path: process.env.PATH }));\n`);
    const report = join(files.dir, "report.json");
    const loginPath = `/opt/it's here:${process.env.PATH}`;
    const script = engineJobScript(files, ["#SBATCH --job-name=strand-run-job-engine"], loginPath, [process.execPath, engine, report, ...HOSTILE], { STRAND_TEST_VALUE: HOSTILE.join(" | ") });
    expect(script.split("\n").slice(0, 2)).toEqual(["#!/bin/sh", "#SBATCH --job-name=strand-run-job-engine"]);
    // A scheduler runs the script it was given with the job's own (bare) environment.
    await execa("sh", ["-c", script], { env: { PATH: "/usr/bin:/bin" }, extendEnv: false });
    await until(() => existsSync(files.exitCode));
    expect(readFileSync(files.exitCode, "utf8").trim()).toBe("0");
    expect(JSON.parse(readFileSync(report, "utf8"))).toEqual({ args: HOSTILE, cwd: workspace, value: HOSTILE.join(" | "), path: loginPath });
    expect(readFileSync(files.wrapperPid, "utf8")).toMatch(/^\S+ \d+\n$/);
    expect(existsSync(marker)).toBe(false);
  });

  it("pass an engine job the signals left as files, in order and once each, and ignore links and other words", async () => {
    const files = remoteRunFiles(join(root, "signalled"), "run-sig");
    mkdirSync(files.signals, { recursive: true });
    writeFileSync(files.wrapper, JOB_WRAPPER_SCRIPT, { mode: 0o700 });
    // The "engine": records each signal it gets; TERM ends it with 143.
    const seen = join(files.dir, "seen.txt");
    const engine = join(root, "signalled-engine.cjs");
    writeFileSync(engine, `const fs = require("fs");
for (const name of ["SIGUSR1", "SIGUSR2"]) process.on(name, () => fs.appendFileSync(process.argv[2], name + "\\n"));
process.on("SIGTERM", () => { fs.appendFileSync(process.argv[2], "SIGTERM\\n"); process.exit(143); });
fs.writeFileSync(process.argv[2], "");
setInterval(() => {}, 1000);
`);
    const job = execa("sh", [files.wrapper, files.dir, process.execPath, engine, seen]);
    await until(() => existsSync(seen));
    const target = join(root, "term-elsewhere");
    writeFileSync(target, "TERM\n");
    const { symlinkSync } = await import("node:fs");
    symlinkSync(target, join(files.signals, "000000000000001-000000.signal"));
    writeFileSync(join(files.signals, "000000000000001-000001.signal"), "KILL\n");
    writeFileSync(join(files.signals, "000000000000001-000002.signal"), "USR1\n");
    writeFileSync(join(files.signals, "000000000000001-000003.signal"), "USR2\n");
    await until(() => readFileSync(seen, "utf8").split("\n").length >= 3);
    expect(readFileSync(seen, "utf8")).toBe("SIGUSR1\nSIGUSR2\n");
    writeFileSync(join(files.signals, "000000000000002-000004.signal"), "TERM\n");
    await job;
    expect(readFileSync(files.exitCode, "utf8").trim()).toBe("143");
    expect(readFileSync(seen, "utf8")).toBe("SIGUSR1\nSIGUSR2\nSIGTERM\n");
    expect(existsSync(join(files.signals, "000000000000001-000003.signal"))).toBe(false);
  });

  it("submit an engine job with its script on stdin and keep the answer beside the run", async () => {
    const files = remoteRunFiles(join(root, `submitted $(touch ${marker})`), "run-submit");
    mkdirSync(files.dir, { recursive: true });
    const fake = join(root, "fake-sbatch");
    writeFileSync(fake, `#!/bin/sh\ncat > "$(dirname "$0")/submitted-script"\nprintf 'args:%s|' "$@"\necho 4242\n`, { mode: 0o755 });
    const result = await execa("sh", ["-c", submitEngineJobCommand(files, [fake, "--time=1-00:00:00", `it's`, "--parsable"])], { input: "#!/bin/sh\necho engine\n" });
    expect(result.stdout).toBe(`args:--time=1-00:00:00|args:it's|args:--parsable|4242`);
    expect(readFileSync(files.engineJobSubmit, "utf8")).toBe(`${result.stdout}\n`);
    expect(readFileSync(join(root, "submitted-script"), "utf8")).toBe("#!/bin/sh\necho engine\n");
    expect(existsSync(marker)).toBe(false);
  });
});
