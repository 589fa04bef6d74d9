/**
 * The HTML report of one run: a single self-contained file (inline CSS and SVG, no scripts, nothing
 * fetched from elsewhere) that reads the same in a browser, an e-mail attachment or an archive years later.
 * Pure: `RunReport` in, an HTML string out; `run-report.ts` gathers the data from a run's folder. Every
 * value that came from the pipeline, the event log or a job's log is escaped where it is written.
 */

/** One job of the run as the report shows it. */
export interface ReportJob {
  name: string;
  rule: string;
  /** `running` (or `queued`) only in a report of a run that is still going or was interrupted. */
  state: "completed" | "failed" | "skipped" | "cancelled" | "running" | "queued";
  /** Why it ran or was skipped (`up-to-date`, `blocked`, …), as the event log words it. */
  reason: string | null;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  /** CPU time of the job's process tree. */
  cpu_ms: number | null;
  peak_memory_mb: number | null;
  exit_code: number | null;
  attempts: number | null;
}

/** A failure of the run with its diagnosis (see engine/run/diagnosis/diagnosis.ts). */
export interface ReportFailure {
  job: string | null;
  rule: string | null;
  exit_code: number | null;
  /** The engine's words for the failure. */
  error: string | null;
  /** The command as run (sensitive values masked), when the checkpoint recorded it. */
  command: string | null;
  diagnosis: { pattern: string; category: string; likely_cause: string; suggestions: string[] };
  /** The last lines of the job's stderr. */
  stderr_tail: string;
  stderr_path: string | null;
}

/** One sample of the whole run's resource use (the service samples the engine's process tree). */
export interface ResourceSample {
  time: string;
  cpu_pct: number;
  memory_mb: number;
}

/** Everything a run report shows. */
export interface RunReport {
  generated_at: string;
  pipeline: { name: string; version: string | null; description: string | null; path: string | null; text: string | null };
  run: {
    id: string;
    /** `completed`, `failed`, `cancelled`; `running` or `interrupted` when the log has no end. */
    status: string;
    started_at: string | null;
    finished_at: string | null;
    duration_ms: number | null;
    executor: string | null;
    workdir: string | null;
    command_line: string[] | null;
    error: string | null;
    error_code: string | null;
  };
  /** The run's own counts (`run_finished.counts`), or counts of the jobs when it has none. */
  counts: Record<string, number>;
  jobs: ReportJob[];
  failures: ReportFailure[];
  /** Things worth knowing that did not fail the run (retries, non-required failures, engine warnings). */
  warnings: string[];
  resources: ResourceSample[];
  environment: {
    /** The strand that ran the jobs, and the one that wrote the report when they differ. */
    strand_version: string | null;
    report_strand_version: string;
    node_version: string | null;
    os: string | null;
    /** The software environments the run's rules used: `conda:envs/align.yaml` → its rules. */
    environments: { label: string; rules: string[] }[];
  };
}

/** The most jobs drawn in the timeline and listed in the job table (a report of 100,000 jobs stays readable). */
export const REPORT_LIMITS = { timelineJobs: 1000, tableJobs: 5000 } as const;

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Renders the report as one HTML document. */
export function renderRunReport(report: RunReport): string {
  const title = `${report.pipeline.name} — run ${report.run.id}`;
  const sections = [
    summarySection(report),
    rulesSection(report),
    timelineSection(report),
    resourcesSection(report),
    failuresSection(report),
    pipelineSection(report),
    environmentSection(report),
  ];
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    // Nothing in the file may load or run anything, even if it is opened from a shared folder.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    `<header><h1>${escapeHtml(report.pipeline.name)}${report.pipeline.version ? ` <small>v${escapeHtml(report.pipeline.version)}</small>` : ""}</h1>`,
    `<p class="status status-${escapeHtml(statusClass(report.run.status))}">${escapeHtml(report.run.status)}</p>`,
    `<nav>${SECTION_TITLES.map(([id, name]) => `<a href="#${id}">${name}</a>`).join(" · ")}</nav></header>`,
    "<main>",
    ...sections,
    "</main>",
    `<footer>Written by strand ${escapeHtml(report.environment.report_strand_version)} at ${escapeHtml(report.generated_at)}.</footer>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

const SECTION_TITLES: [string, string][] = [
  ["summary", "Summary"],
  ["rules", "Rules"],
  ["timeline", "Timeline"],
  ["resources", "Resources"],
  ["failures", "Failures"],
  ["pipeline", "Pipeline"],
  ["environment", "Environment"],
];

function section(id: string, body: string[]): string {
  const title = SECTION_TITLES.find(([key]) => key === id)![1];
  return [`<section id="${id}">`, `<h2>${title}</h2>`, ...body, "</section>"].join("\n");
}

function statusClass(status: string): string {
  return ["completed", "failed", "cancelled", "running"].includes(status) ? status : "other";
}

function summarySection(report: RunReport): string {
  const { run, pipeline } = report;
  const rows: [string, string | null][] = [
    ["Pipeline", pipeline.name],
    ["Version", pipeline.version],
    ["Description", pipeline.description],
    ["Workflow file", pipeline.path],
    ["Run", run.id],
    ["Status", run.status],
    ["Started", run.started_at],
    ["Ended", run.finished_at],
    ["Duration", run.duration_ms === null ? null : formatDuration(run.duration_ms)],
    ["Executor", run.executor],
    ["Workdir", run.workdir],
    ["Command line", run.command_line ? ["strand", ...run.command_line].join(" ") : null],
  ];
  if (run.error) rows.push(["Error", `${run.error_code ? `${run.error_code}: ` : ""}${run.error}`]);
  const table = definitionTable(rows);
  const counts = Object.entries(report.counts)
    .map(([name, value]) => `<li><span class="count">${escapeHtml(value)}</span> ${escapeHtml(name.replaceAll("_", " "))}</li>`)
    .join("");
  const warnings = report.warnings.length === 0 ? [] : ["<h3>Warnings</h3>", `<ul class="warnings">${report.warnings.map((text) => `<li>${escapeHtml(text)}</li>`).join("")}</ul>`];
  return section("summary", [table, `<ul class="counts">${counts}</ul>`, ...warnings]);
}

function definitionTable(rows: [string, string | null][]): string {
  const body = rows
    .filter(([, value]) => value !== null && value !== "")
    .map(([name, value]) => `<tr><th scope="row">${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`)
    .join("\n");
  return `<table class="facts">\n${body}\n</table>`;
}

/** Per rule: jobs by state and the min, median and max of the durations of jobs that ran. */
function rulesSection(report: RunReport): string {
  const byRule = new Map<string, ReportJob[]>();
  for (const job of report.jobs) {
    const list = byRule.get(job.rule) ?? [];
    list.push(job);
    byRule.set(job.rule, list);
  }
  if (byRule.size === 0) return section("rules", ["<p>No jobs were planned.</p>"]);
  const header = "<tr><th>Rule</th><th>Jobs</th><th>Completed</th><th>Failed</th><th>Skipped</th><th>Other</th><th>Min</th><th>Median</th><th>Max</th><th>Total time</th></tr>";
  const rows = [...byRule].map(([rule, jobs]) => {
    const count = (state: ReportJob["state"]) => jobs.filter((job) => job.state === state).length;
    const other = jobs.length - count("completed") - count("failed") - count("skipped");
    const durations = jobs
      .filter((job) => (job.state === "completed" || job.state === "failed") && job.duration_ms !== null)
      .map((job) => job.duration_ms!)
      .sort((a, b) => a - b);
    const stat = (value: number | undefined) => (value === undefined ? "–" : formatDuration(value));
    const cells = [
      `<th scope="row">${escapeHtml(rule)}</th>`,
      jobs.length,
      count("completed"),
      `<span class="${count("failed") > 0 ? "bad" : ""}">${count("failed")}</span>`,
      count("skipped"),
      other,
      stat(durations[0]),
      stat(median(durations)),
      stat(durations.at(-1)),
      stat(durations.length > 0 ? durations.reduce((sum, value) => sum + value, 0) : undefined),
    ];
    return `<tr>${cells.map((cell, index) => (index === 0 ? cell : `<td class="num">${cell}</td>`)).join("")}</tr>`;
  });
  return section("rules", [`<table class="grid">\n${header}\n${rows.join("\n")}\n</table>`]);
}

function median(sorted: number[]): number | undefined {
  if (sorted.length === 0) return undefined;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#9c755f", "#bab0ac", "#ff9da7", "#86bcb6"];

/** A Gantt-like chart: one bar per job that ran, from its start to its end, coloured by rule. */
function timelineSection(report: RunReport): string {
  const ran = report.jobs.filter((job) => job.started_at !== null && Number.isFinite(Date.parse(job.started_at))).sort((a, b) => Date.parse(a.started_at!) - Date.parse(b.started_at!));
  if (ran.length === 0) return section("timeline", ["<p>No job started in this run.</p>"]);
  const shown = ran.slice(0, REPORT_LIMITS.timelineJobs);
  const runStart = report.run.started_at ? Math.min(Date.parse(report.run.started_at), Date.parse(shown[0]!.started_at!)) : Date.parse(shown[0]!.started_at!);
  const endOf = (job: ReportJob) => (job.finished_at ? Date.parse(job.finished_at) : job.duration_ms !== null ? Date.parse(job.started_at!) + job.duration_ms : NaN);
  const lastEnd = Math.max(...shown.map((job) => endOf(job)).filter(Number.isFinite), report.run.finished_at ? Date.parse(report.run.finished_at) : 0, Date.parse(shown.at(-1)!.started_at!));
  const span = Math.max(1, lastEnd - runStart);
  const rules = [...new Set(report.jobs.map((job) => job.rule))];
  const colour = (rule: string) => PALETTE[rules.indexOf(rule) % PALETTE.length]!;
  const labelWidth = 220;
  const chartWidth = 760;
  const rowHeight = 16;
  const top = 24;
  const height = top + shown.length * rowHeight + 8;
  const x = (time: number) => labelWidth + ((time - runStart) / span) * chartWidth;
  const parts: string[] = [];
  for (let tick = 0; tick <= 4; tick++) {
    const tx = labelWidth + (tick / 4) * chartWidth;
    parts.push(`<line x1="${tx.toFixed(1)}" y1="${top - 6}" x2="${tx.toFixed(1)}" y2="${height}" class="tick"/>`);
    parts.push(`<text x="${tx.toFixed(1)}" y="${top - 10}" text-anchor="${tick === 0 ? "start" : tick === 4 ? "end" : "middle"}" class="axis">${escapeHtml(formatDuration((tick / 4) * span))}</text>`);
  }
  shown.forEach((job, row) => {
    const y = top + row * rowHeight;
    const start = Date.parse(job.started_at!);
    const end = endOf(job);
    const x1 = x(start);
    const x2 = Number.isFinite(end) ? x(end) : labelWidth + chartWidth;
    const tip = `${job.name} (${job.rule}): ${job.state}${job.duration_ms !== null ? `, ${formatDuration(job.duration_ms)}` : ""}`;
    parts.push(
      `<g class="job job-${escapeHtml(job.state)}"><title>${escapeHtml(tip)}</title>` +
        `<text x="${labelWidth - 6}" y="${y + 11}" text-anchor="end" class="label">${escapeHtml(truncate(job.name, 34))}</text>` +
        `<rect x="${x1.toFixed(1)}" y="${y + 2}" width="${Math.max(1.5, x2 - x1).toFixed(1)}" height="${rowHeight - 4}" rx="2" fill="${colour(job.rule)}"/></g>`,
    );
  });
  const svg = `<svg class="timeline" viewBox="0 0 ${labelWidth + chartWidth + 10} ${height}" width="${labelWidth + chartWidth + 10}" height="${height}" role="img" aria-label="timeline of jobs">\n${parts.join("\n")}\n</svg>`;
  const legend = `<ul class="legend">${rules.map((rule) => `<li><span class="swatch" style="background:${colour(rule)}"></span>${escapeHtml(rule)}</li>`).join("")}<li><span class="swatch failed"></span>failed (outlined)</li></ul>`;
  const note = ran.length > shown.length ? `<p class="note">The first ${shown.length} of ${ran.length} jobs to start are drawn.</p>` : "";
  return section("timeline", [legend, `<div class="scroll">${svg}</div>`, note]);
}

/** CPU and memory per job (from the job events), and the run's own samples when the service took them. */
function resourcesSection(report: RunReport): string {
  const measured = report.jobs.filter((job) => job.duration_ms !== null || job.cpu_ms !== null || job.peak_memory_mb !== null);
  const body: string[] = [];
  if (report.resources.length > 1) body.push("<h3>The whole run</h3>", resourceChart(report.resources));
  if (measured.length === 0) {
    body.push("<p>No job recorded its resource use in this run.</p>");
    return section("resources", body);
  }
  const shown = measured.slice(0, REPORT_LIMITS.tableJobs);
  const header = "<tr><th>Job</th><th>Rule</th><th>State</th><th>Wall time</th><th>CPU time</th><th>CPU use</th><th>Peak memory</th><th>Exit</th><th>Attempts</th></tr>";
  const rows = shown.map((job) => {
    const cpuShare = job.cpu_ms !== null && job.duration_ms !== null && job.duration_ms > 0 ? `${Math.round((job.cpu_ms / job.duration_ms) * 100)} %` : "–";
    const cells = [
      escapeHtml(job.name),
      escapeHtml(job.rule),
      `<span class="state-${escapeHtml(job.state)}">${escapeHtml(job.state)}</span>`,
      job.duration_ms === null ? "–" : formatDuration(job.duration_ms),
      job.cpu_ms === null ? "–" : formatDuration(job.cpu_ms),
      cpuShare,
      job.peak_memory_mb === null ? "–" : `${formatNumber(job.peak_memory_mb)} MB`,
      job.exit_code === null ? "–" : escapeHtml(job.exit_code),
      job.attempts === null ? "–" : escapeHtml(job.attempts),
    ];
    return `<tr>${cells.map((cell, index) => `<td${index >= 3 ? ' class="num"' : ""}>${cell}</td>`).join("")}</tr>`;
  });
  body.push("<h3>Per job</h3>", `<table class="grid">\n${header}\n${rows.join("\n")}\n</table>`);
  if (measured.length > shown.length) body.push(`<p class="note">The first ${shown.length} of ${measured.length} jobs are listed.</p>`);
  return section("resources", body);
}

function resourceChart(samples: ResourceSample[]): string {
  const width = 760;
  const height = 140;
  const times = samples.map((sample) => Date.parse(sample.time));
  const start = Math.min(...times);
  const span = Math.max(1, Math.max(...times) - start);
  const line = (values: number[]) => {
    const top = Math.max(1, ...values);
    return values.map((value, index) => `${((((times[index] ?? start) - start) / span) * width).toFixed(1)},${(height - (value / top) * (height - 10)).toFixed(1)}`).join(" ");
  };
  const cpu = samples.map((sample) => sample.cpu_pct);
  const memory = samples.map((sample) => sample.memory_mb);
  return [
    `<svg class="resources" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="CPU and memory of the run">`,
    `<polyline points="${line(cpu)}" class="cpu"/>`,
    `<polyline points="${line(memory)}" class="memory"/>`,
    "</svg>",
    `<ul class="legend"><li><span class="swatch cpu"></span>CPU, peak ${formatNumber(Math.max(...cpu))} % of one core</li><li><span class="swatch memory"></span>memory, peak ${formatNumber(Math.max(...memory))} MB</li></ul>`,
  ].join("\n");
}

function failuresSection(report: RunReport): string {
  if (report.failures.length === 0) return section("failures", ['<p class="ok">No job failed.</p>']);
  const items = report.failures.map((failure) => {
    const name = failure.job ?? "the run";
    const rows: [string, string | null][] = [
      ["Rule", failure.rule],
      ["Exit code", failure.exit_code === null ? null : String(failure.exit_code)],
      ["Engine", failure.error],
      ["Diagnosis", `${failure.diagnosis.pattern} (${failure.diagnosis.category})`],
      ["Likely cause", failure.diagnosis.likely_cause],
      ["Log", failure.stderr_path],
    ];
    const suggestions = failure.diagnosis.suggestions.length > 0 ? `<h4>What to try</h4><ul>${failure.diagnosis.suggestions.map((text) => `<li>${escapeHtml(text)}</li>`).join("")}</ul>` : "";
    const command = failure.command ? `<h4>Command</h4><pre>${escapeHtml(failure.command)}</pre>` : "";
    const stderr = failure.stderr_tail ? `<h4>End of stderr</h4><pre class="stderr">${escapeHtml(failure.stderr_tail)}</pre>` : "";
    return `<article class="failure"><h3>${escapeHtml(name)}</h3>\n${definitionTable(rows)}\n${suggestions}${command}${stderr}</article>`;
  });
  return section("failures", items);
}

function pipelineSection(report: RunReport): string {
  if (report.pipeline.text === null) return section("pipeline", ["<p>The workflow file could not be read when the report was written.</p>"]);
  return section("pipeline", [report.pipeline.path ? `<p class="note">${escapeHtml(report.pipeline.path)}</p>` : "", `<pre class="pipeline">${escapeHtml(report.pipeline.text)}</pre>`]);
}

function environmentSection(report: RunReport): string {
  const env = report.environment;
  const rows: [string, string | null][] = [
    ["strand (ran the jobs)", env.strand_version],
    ["strand (wrote this report)", env.report_strand_version],
    ["Node.js", env.node_version],
    ["Operating system", env.os],
  ];
  const environments =
    env.environments.length === 0
      ? "<p>No rule of this run had a job planned.</p>"
      : `<table class="grid"><tr><th>Environment</th><th>Rules</th></tr>\n${env.environments.map((item) => `<tr><td><code>${escapeHtml(item.label)}</code></td><td>${escapeHtml(item.rules.join(", "))}</td></tr>`).join("\n")}\n</table>`;
  return section("environment", [definitionTable(rows), "<h3>Environments used</h3>", environments]);
}

/** 850 ms, 12.3 s, 4 min 05 s, 2 h 03 min. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return "–";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(Math.floor(seconds % 60)).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

function formatNumber(value: number): string {
  return value >= 100 ? String(Math.round(value)) : String(Math.round(value * 10) / 10);
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

const STYLE = `
:root{color-scheme:light;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--panel:#f6f8fa;--bad:#cf222e;--good:#1a7f37;--warn:#9a6700}
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:var(--fg);background:var(--bg)}
header{padding:16px 24px;border-bottom:1px solid var(--line);background:var(--panel)}
header h1{margin:0;font-size:22px}
header small{color:var(--muted);font-weight:normal}
nav a{color:#0969da;text-decoration:none}
main{padding:0 24px 24px;max-width:1100px}
section{margin-top:28px}
h2{border-bottom:1px solid var(--line);padding-bottom:4px}
h4{margin:12px 0 4px}
table{border-collapse:collapse}
table.facts th{text-align:left;padding:2px 16px 2px 0;color:var(--muted);font-weight:600;vertical-align:top}
table.facts td{padding:2px 0;word-break:break-word}
table.grid th,table.grid td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
table.grid th{background:var(--panel)}
td.num{text-align:right;font-variant-numeric:tabular-nums}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:10px;overflow:auto;max-height:480px;font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;word-break:break-word}
pre.stderr{border-left:3px solid var(--bad)}
.status{display:inline-block;margin:6px 0;padding:1px 10px;border-radius:10px;font-weight:600;color:#fff;background:var(--muted)}
.status-completed{background:var(--good)}.status-failed{background:var(--bad)}.status-cancelled{background:var(--warn)}.status-running{background:#0969da}
ul.counts{display:flex;flex-wrap:wrap;gap:8px;list-style:none;padding:0}
ul.counts li{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:4px 10px}
.count{font-weight:700;font-size:16px}
ul.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:12px}
.swatch{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:4px;vertical-align:-1px}
.swatch.failed{border:2px solid var(--bad)}.swatch.cpu{background:#0969da}.swatch.memory{background:#8250df}
.scroll{overflow-x:auto}
svg text{font:11px system-ui,sans-serif;fill:var(--fg)}
svg .axis{fill:var(--muted)}
svg .tick{stroke:var(--line)}
svg .job-failed rect{stroke:var(--bad);stroke-width:2}
svg .job-cancelled rect{opacity:.5}
svg polyline{fill:none;stroke-width:1.5}
svg polyline.cpu{stroke:#0969da}svg polyline.memory{stroke:#8250df}
.bad,.state-failed{color:var(--bad);font-weight:600}
.ok{color:var(--good)}
.note{color:var(--muted)}
article.failure{border:1px solid var(--line);border-radius:6px;padding:4px 16px 12px;margin:12px 0}
footer{padding:16px 24px;color:var(--muted);border-top:1px solid var(--line)}
@media print{pre{max-height:none}nav{display:none}}
`;
