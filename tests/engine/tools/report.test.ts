/**
 * Run reports: a real run of a small pipeline with one failing job (real processes, real event log,
 * checkpoint and stderr files) read back by `loadRunReport` and rendered; and the renderer alone on
 * hostile values, which must come out escaped, in a file that loads nothing from anywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { escapeHtml, renderRunReport, REPORT_LIMITS, type ReportJob, type RunReport } from "../../../src/engine/tools/report.js";
import { isRunFolder, loadRunReport, runFolderOf } from "../../../src/engine/tools/run-report.js";
import { engineVersion } from "../../../src/engine/version.js";
import { removeTempDirs } from "../../support/temp-workspace.js";
import { runWorkflow, type FinishedRun } from "../run/harness.js";
import { expectEverySection, expectSelfContained, FAILING_PIPELINE } from "../../support/report-checks.js";

afterAll(removeTempDirs);

describe("the report of a real run with a failing job", () => {
  let run: FinishedRun;
  let report: RunReport;
  let html: string;

  beforeAll(async () => {
    run = await runWorkflow("report-demo", FAILING_PIPELINE, { keepGoing: true, jobs: 2 });
    report = await loadRunReport(run.result.runDir);
    html = renderRunReport(report);
  });

  it("reads the run folder: summary, counts, every job with its times and resources", () => {
    expect(run.result.status).toBe("failed");
    expect(isRunFolder(run.result.runDir)).toBe(true);
    expect(runFolderOf(run.dir)).toBe(run.result.runDir);
    expect(report.pipeline).toMatchObject({ name: "report-demo", version: "2.0.1", path: join(run.dir, "main.oxoflow") });
    expect(report.pipeline.text).toBe(readFileSync(join(run.dir, "main.oxoflow"), "utf8"));
    expect(report.run).toMatchObject({ id: run.result.runId, status: "failed", executor: "local", workdir: run.dir });
    expect(report.run.duration_ms).toBe(run.result.durationMs);
    expect(report.counts).toMatchObject({ total: 4, succeeded: 2, failed: 2 });
    expect(report.jobs.map((job) => [job.name, job.rule, job.state])).toEqual([
      ["make_cohort_S1", "make", "completed"],
      ["make_cohort_S2", "make", "completed"],
      ["broken_cohort_S1", "broken", "failed"],
      ["broken_cohort_S2", "broken", "failed"],
    ]);
    for (const job of report.jobs) {
      expect(Date.parse(job.finished_at!)).toBeGreaterThanOrEqual(Date.parse(job.started_at!));
      expect(job.duration_ms).toBeGreaterThanOrEqual(0);
      expect(job.cpu_ms).not.toBeNull();
    }
    expect(report.environment).toMatchObject({ strand_version: engineVersion(), report_strand_version: engineVersion(), node_version: process.version, environments: [{ label: "system", rules: ["make", "broken"] }] });
    expect(report.environment.os).toMatch(/\(.+\)$/);
  });

  it("diagnoses each failed job, with its command from the checkpoint and the end of its stderr", () => {
    expect(report.failures.map((failure) => [failure.job, failure.rule, failure.exit_code, failure.diagnosis.pattern])).toEqual([
      ["broken_cohort_S1", "broken", 127, "command_not_found"],
      ["broken_cohort_S2", "broken", 127, "command_not_found"],
    ]);
    const [first] = report.failures;
    expect(first!.command).toBe("echo '<script>alert(1)</script>' >&2; no_such_tool_for_report out/S1.txt > bad/S1.txt");
    expect(first!.stderr_tail).toContain("<script>alert(1)</script>");
    expect(first!.stderr_tail).toMatch(/no_such_tool_for_report: command not found/);
    expect(first!.stderr_path).toMatch(/jobs\/broken_cohort_S1\/stderr\.log$/);
    expect(first!.diagnosis.suggestions.length).toBeGreaterThan(0);
  });

  it("renders every section in one self-contained file, the script tags of the command and stderr escaped", () => {
    expectEverySection(html);
    expectSelfContained(html);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;b&gt;made&lt;/b&gt;");
    // Summary, per-rule table, one timeline bar per job, resources, failures, pipeline text, environment.
    expect(html).toContain(`<td>${run.result.runId}</td>`);
    expect(html).toMatch(/<th scope="row">make<\/th><td class="num">2<\/td><td class="num">2<\/td>/);
    expect(html).toMatch(/<th scope="row">broken<\/th><td class="num">2<\/td><td class="num">0<\/td><td class="num"><span class="bad">2<\/span>/);
    expect(html.match(/<g class="job job-(completed|failed)">/g)).toHaveLength(4);
    expect(html.match(/<g class="job job-failed">/g)).toHaveLength(2);
    expect(html).toMatch(/<h3>Per job<\/h3>/);
    expect(html.match(/<article class="failure">/g)).toHaveLength(2);
    expect(html).toContain("command_not_found");
    expect(html).toContain(escapeHtml(report.pipeline.text!));
    expect(html).toContain(`<td>${process.version}</td>`);
    expect(html).toContain("<code>system</code>");
  });
});

function job(name: string, rule: string, state: ReportJob["state"], startMs: number, durationMs: number): ReportJob {
  const start = new Date(Date.UTC(2026, 0, 1) + startMs).toISOString();
  const end = new Date(Date.UTC(2026, 0, 1) + startMs + durationMs).toISOString();
  return { name, rule, state, reason: null, started_at: start, finished_at: end, duration_ms: durationMs, cpu_ms: durationMs / 2, peak_memory_mb: 12.5, exit_code: state === "failed" ? 1 : 0, attempts: 1 };
}

function hostileReport(jobs: ReportJob[]): RunReport {
  const evil = `<script>alert("x")</script>`;
  return {
    generated_at: "2026-01-01T00:10:00.000Z",
    pipeline: { name: `p${evil}`, version: `1${evil}`, description: evil, path: `/tmp/${evil}.oxoflow`, text: `[workflow]\nname = "${evil}"\n# see https://example.org/x <img src=https://example.org/a.png>` },
    run: { id: `r${evil}`, status: `failed${evil}`, started_at: "2026-01-01T00:00:00.000Z", finished_at: "2026-01-01T00:05:00.000Z", duration_ms: 300_000, executor: evil, workdir: evil, command_line: ["run", evil], error: evil, error_code: evil },
    counts: { [`total${evil}`]: jobs.length },
    jobs,
    failures: [{ job: `j${evil}`, rule: `r${evil}`, exit_code: 1, error: evil, command: `echo ${evil}`, diagnosis: { pattern: evil, category: evil, likely_cause: evil, suggestions: [evil] }, stderr_tail: evil, stderr_path: evil }],
    warnings: [evil],
    resources: [
      { time: "2026-01-01T00:00:00.000Z", cpu_pct: 50, memory_mb: 100 },
      { time: "2026-01-01T00:01:00.000Z", cpu_pct: 150, memory_mb: 300 },
    ],
    environment: { strand_version: evil, report_strand_version: "1.0.0", node_version: evil, os: evil, environments: [{ label: `conda:${evil}`, rules: [evil] }] },
  };
}

describe("rendering", () => {
  it("escapes every value from the pipeline, the log and the jobs, and fetches nothing", () => {
    const evil = `<script>alert("x")</script>`;
    const html = renderRunReport(hostileReport([job(`j${evil}`, `rule${evil}`, "failed", 0, 2000), job("ok", `rule${evil}`, "completed", 1000, 500)]));
    expectEverySection(html);
    expectSelfContained(html);
    expect(html).not.toContain(evil);
    expect(html).toContain(escapeHtml(evil));
    // A URL in the pipeline text stays text, never an attribute.
    expect(html).toContain("&lt;img src=https://example.org/a.png&gt;");
    // The whole-run resource samples become a chart.
    expect(html).toMatch(/<polyline points="[\d., ]+" class="cpu"\/>/);
  });

  it("draws at most the limit of bars and says so", () => {
    const many = Array.from({ length: REPORT_LIMITS.timelineJobs + 5 }, (_, index) => job(`j${index}`, "r", "completed", index, 10));
    const html = renderRunReport(hostileReport(many));
    expect(html.match(/<g class="job /g)).toHaveLength(REPORT_LIMITS.timelineJobs);
    expect(html).toContain(`The first ${REPORT_LIMITS.timelineJobs} of ${REPORT_LIMITS.timelineJobs + 5} jobs to start are drawn.`);
  });

  it("reports median durations per rule", () => {
    const html = renderRunReport(hostileReport([job("a", "r", "completed", 0, 1000), job("b", "r", "completed", 0, 3000), job("c", "r", "completed", 0, 2000), job("d", "r", "skipped", 0, 0)]));
    expect(html).toMatch(/<th scope="row">r<\/th><td class="num">4<\/td><td class="num">3<\/td><td class="num"><span class="">0<\/span><\/td><td class="num">1<\/td><td class="num">0<\/td><td class="num">1\.0 s<\/td><td class="num">2\.0 s<\/td><td class="num">3\.0 s<\/td>/);
  });
});
