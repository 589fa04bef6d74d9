/**
 * `strand run`'s plain progress lines (stderr not a terminal) are gathered and written together: they
 * still show up while a job runs (within a fraction of a second, not at the end), stay in order, and are
 * all written before the summary, also when the run fails.
 */
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { STRAND_BIN, strandEnv, tempFolder, type TempFolder } from "../support/strand-cli.js";

const folders: TempFolder[] = [];
afterAll(() => folders.forEach((folder) => folder.remove()));

const PIPELINE = `[workflow]
name = "progress"

[[values]]
name = "n"
values = ["1", "2", "3"]

[[rules]]
name = "quick"
output = ["quick_{n}.txt"]
shell = "touch {output}"

[[rules]]
name = "slow"
input = ["quick_1.txt", "quick_2.txt", "quick_3.txt"]
output = ["slow.txt"]
shell = "sleep 3; touch slow.txt"
`;

describe("strand run progress on a pipe", () => {
  it("shows lines while a job runs, in order, all before the summary", async () => {
    const folder = tempFolder({ "main.oxoflow": PIPELINE });
    folders.push(folder);
    const run = execa(process.execPath, [STRAND_BIN, "run", "-j", "1"], { cwd: folder.dir, env: strandEnv(), extendEnv: true, reject: false, stdin: "ignore" });
    let seen = "";
    let seenWhileSlow: string | undefined;
    run.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (seenWhileSlow === undefined && seen.includes("Running: slow")) seenWhileSlow = seen;
    });
    const started = Date.now();
    const result = await run;
    expect(result.exitCode, result.stderr).toBe(0);
    // "Running: slow" arrived while the 3 s job still ran, with every line before it.
    expect(seenWhileSlow).toBeDefined();
    expect(seenWhileSlow).toMatch(/✓ quick_n_1[\s\S]*✓ quick_n_2[\s\S]*✓ quick_n_3[\s\S]*Running: slow/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
    const lines = result.stderr.split("\n");
    const last = lines.findIndex((line) => line.includes("✓ slow"));
    expect(last).toBeGreaterThan(0);
    expect(lines.findIndex((line) => line.includes("Running: slow"))).toBeLessThan(last);
  });

  it("writes a failed job's lines before the run's end", async () => {
    const folder = tempFolder({ "main.oxoflow": PIPELINE.replace("sleep 3; touch slow.txt", "echo broken >&2; exit 3") });
    folders.push(folder);
    const result = await execa(process.execPath, [STRAND_BIN, "run"], { cwd: folder.dir, env: strandEnv(), extendEnv: true, reject: false, stdin: "ignore" });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/✗ job 'slow' failed[\s\S]*exit code: 3/);
  });
});
