/**
 * `strand run --report FILE` and `strand report`, as a user runs them: the real binary on a pipeline with
 * one failing rule; the files they write are whole reports (every section, self-contained, escaped).
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectEverySection, expectSelfContained, FAILING_PIPELINE } from "../support/report-checks.js";
import { parseData, parseEnvelope, runStrand, tempFolder, type StrandResult, type TempFolder } from "../support/strand-cli.js";

const folders: TempFolder[] = [];
afterAll(() => folders.forEach((folder) => folder.remove()));

function workspace(text: string): TempFolder {
  const folder = tempFolder({ "main.oxoflow": text });
  folders.push(folder);
  return folder;
}

const PIPELINE = `[workflow]\nname = "cli-report"\n${FAILING_PIPELINE}`;
const PASSING = `[workflow]\nname = "cli-report-ok"\nversion = "1.0"\n\n[[rules]]\nname = "hello"\noutput = ["hello.txt"]\nshell = "echo hello > {output}"\n`;

describe("strand run --report", () => {
  let folder: TempFolder;
  let run: StrandResult;

  beforeAll(async () => {
    folder = workspace(PIPELINE);
    run = await runStrand(["run", "-k", "--report", "out/run-report.html"], { cwd: folder.dir });
  });

  it("writes the report of a failed run when it ends, and keeps the run's exit code", () => {
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/report: out\/run-report\.html/);
    const html = readFileSync(folder.path("out", "run-report.html"), "utf8");
    expectEverySection(html);
    expectSelfContained(html);
    expect(html).toContain("<h1>cli-report <small>v2.0.1</small></h1>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html.match(/<article class="failure">/g)).toHaveLength(2);
    expect(html).toContain("command_not_found");
  });

  it("writes one for a completed run too, and exits 0", async () => {
    const ok = workspace(PASSING);
    const result = await runStrand(["run", "--report", "report.html"], { cwd: ok.dir });
    expect(result.exitCode).toBe(0);
    const html = readFileSync(ok.path("report.html"), "utf8");
    expectEverySection(html);
    expect(html).toContain('<p class="status status-completed">completed</p>');
    expect(html).toContain('<p class="ok">No job failed.</p>');
  });

  it("says so and exits 1 when the report cannot be written, after a run that completed", async () => {
    const ok = workspace(PASSING);
    const result = await runStrand(["run", "--report", "missing-folder/report.html"], { cwd: ok.dir });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/Done: 1 succeeded/);
    expect(result.stderr).toMatch(/✗ the report was not written: .*ENOENT/);
  });

  describe("strand report", () => {
    it("writes report.html for the workdir's latest run by default", async () => {
      const result = await runStrand(["report"], { cwd: folder.dir });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toMatch(/^wrote report\.html \(run .*: failed, 2 failure\(s\)\)/);
      const html = readFileSync(folder.path("report.html"), "utf8");
      expectEverySection(html);
      expectSelfContained(html);
    });

    it("takes a run folder, or a workdir with --run ID, and -o FILE", async () => {
      const [runId] = readdirSync(folder.path(".strand", "runs")).filter((name) => name !== "latest");
      const byFolder = await runStrand(["report", join(".strand", "runs", runId!), "-o", "by-folder.html"], { cwd: folder.dir });
      expect(byFolder.exitCode).toBe(0);
      const byId = await runStrand(["report", folder.dir, "--run", runId!, "-o", "by-id.html", "--json"], { cwd: folder.dir });
      expect(parseData(byId)).toEqual({ report: folder.path("by-id.html"), run_dir: folder.path(".strand", "runs", runId!), status: "failed", failures: 2 });
      for (const file of ["by-folder.html", "by-id.html"]) {
        const html = readFileSync(folder.path(file), "utf8");
        expect(html).toContain(`<td>${runId}</td>`);
        expectEverySection(html);
      }
    });

    it("prints the report on stdout with -o -", async () => {
      const result = await runStrand(["report", "-o", "-"], { cwd: folder.dir });
      expect(result.exitCode).toBe(0);
      expectEverySection(result.stdout);
    });

    it("fails with a clear error where there is no run", async () => {
      const empty = workspace(PASSING);
      const result = await runStrand(["report", "--json"], { cwd: empty.dir });
      expect(result.exitCode).toBe(1);
      expect(parseEnvelope(result).findings[0]).toMatchObject({ code: "IO_ERROR", message: expect.stringMatching(/no runs recorded/) });
      expect(existsSync(empty.path("report.html"))).toBe(false);
      const unknown = await runStrand(["report", "--run", "no-such-run"], { cwd: folder.dir });
      expect(unknown.exitCode).toBe(1);
      expect(unknown.stderr).toMatch(/no event log for the run/);
    });
  });
});
