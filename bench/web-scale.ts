/**
 * `npm run bench:web`: the browser app at scale, in Debian's Chromium against a real service.
 *
 * Seeds a finished run of 100,000 jobs over 20 rules (`tests/support/large-run.ts`: the event log a real run
 * leaves, read by the service's own views) and saves a 500-rule pipeline, then measures:
 * - the run page: from navigation to the header, the per-rule progress and the first job rows shown (cold
 *   and warm, best and median of five; goal under 2 s);
 * - the job table's scrolling: 300 animation frames scrolling 600 px each through the virtualised rows, the
 *   frame intervals (p50, p95, max) and the frames that took over twice the display's frame time ("dropped";
 *   goal: none), then a jump to the middle and the wait until those rows hold data;
 * - the editor's DAG view of the 500-rule pipeline: until its nodes are drawn, and the frame intervals
 *   while it is zoomed and panned (goal: stays responsive).
 * Options: `--jobs N` (default 100000), `--rules N` (500), `--runs N` (5).
 */
import type { Page } from "playwright-core";
import { launchBrowser } from "../tests/support/browser.js";
import { seedLargeRun } from "../tests/support/large-run.js";
import { serviceClient } from "../tests/support/run-client.js";
import { startTestService } from "../tests/support/service-harness.js";
import { layeredPipelineText } from "./layered-pipeline.js";
import { option } from "./service-process.js";

const JOBS = Number(option("jobs") ?? 100_000);
const RULES = Number(option("rules") ?? 500);
const REPEATS = Number(option("runs") ?? 5);

const JOB_ROWS = '[role="table"][aria-label="Jobs"] .vbody [role="row"] .col-job';
const JOB_SCROLLER = '[role="table"][aria-label="Jobs"] .vbody';
const DAG_NODE = ".react-flow__node";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;
const ms = (value: number) => `${value.toFixed(0)} ms`;

/** Frame intervals while `step` runs once per animation frame, `frames` times (in the page). */
async function frameIntervals(page: Page, script: string, frames: number): Promise<number[]> {
  return page.evaluate(`new Promise((resolve) => {
    const step = ${script};
    const intervals = [];
    let last = performance.now();
    let count = 0;
    const tick = (now) => {
      intervals.push(now - last);
      last = now;
      step(count);
      if (++count < ${frames}) requestAnimationFrame(tick); else resolve(intervals.slice(1));
    };
    requestAnimationFrame((now) => { last = now; requestAnimationFrame(tick); });
  })`);
}

/** The display's frame time, measured on an idle page (16.7 ms at 60 Hz). */
async function idleFrame(page: Page): Promise<number> {
  return median(await frameIntervals(page, "() => {}", 60));
}

function frameSummary(intervals: number[], frame: number): string {
  const dropped = intervals.filter((interval) => interval > frame * 2).length;
  return `p50 ${intervals.length ? percentile(intervals, 50).toFixed(1) : "-"} ms, p95 ${percentile(intervals, 95).toFixed(1)} ms, max ${Math.max(...intervals).toFixed(1)} ms, dropped ${dropped} of ${intervals.length}`;
}

async function main(): Promise<void> {
  const service = await startTestService();
  const browser = await launchBrowser();
  try {
    let started = performance.now();
    const run = await seedLargeRun(service, { jobs: JOBS, failed: Math.round(JOBS / 1000) });
    console.log(`seeded a run of ${run.jobs.toLocaleString("en")} jobs over ${run.rules.length} rules (${run.failed} failed) in ${ms(performance.now() - started)}`);
    const client = serviceClient(service.url);
    const saved = await client.POST("/api/pipelines", { body: { name: `layered-${RULES}`, toml_content: layeredPipelineText(RULES) } });
    if (!saved.data) throw new Error(`could not save the ${RULES}-rule pipeline: ${JSON.stringify(saved.error)}`);

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    const open = async (path: string) => {
      const page = await context.newPage();
      page.on("pageerror", (error) => errors.push(`${path}: ${error.message}`));
      started = performance.now();
      await page.goto(`${service.url}${path}`);
      return page;
    };

    // The run page, cold (the service folds the event log once) and then warm.
    const times: number[] = [];
    let page!: Page;
    for (let attempt = 0; attempt < REPEATS; attempt++) {
      if (page) await page.close();
      page = await open(`/runs/${run.id}`);
      await page.getByRole("heading", { name: "large-run" }).first().waitFor({ timeout: 60_000 });
      await page.locator(JOB_ROWS).first().waitFor({ timeout: 60_000 });
      await page.getByText(run.rules[run.rules.length - 1]!, { exact: true }).first().waitFor();
      times.push(performance.now() - started);
    }
    const [cold, ...warm] = times;
    console.log(`run page of ${JOBS.toLocaleString("en")} jobs, header + progress + first job rows: cold ${ms(cold!)}, warm best ${ms(Math.min(...warm))}, warm median ${ms(median(warm))} (goal < 2000 ms)`);

    // Scrolling the job table through the virtualised rows.
    const frame = await idleFrame(page);
    await page.locator(JOB_SCROLLER).scrollIntoViewIfNeeded();
    const scrolling = await frameIntervals(page, `(() => { const scroller = document.querySelector('${JOB_SCROLLER}'); return () => { scroller.scrollTop += 600; }; })()`, 300);
    console.log(`job table scroll, 300 frames × 600 px (display frame ${frame.toFixed(1)} ms): ${frameSummary(scrolling, frame)}`);
    started = performance.now();
    await page.evaluate(`(() => { const scroller = document.querySelector('${JOB_SCROLLER}'); scroller.scrollTop = scroller.scrollHeight / 2; })()`);
    const middle = Math.floor(JOBS / 2);
    // Polled with evaluate (waitForFunction with a string would need 'unsafe-eval', which the app's CSP refuses).
    const filled = `[...document.querySelectorAll('${JOB_ROWS}')].some((cell) => Math.abs(Number(cell.closest('[role="row"]').getAttribute('aria-rowindex')) - ${middle}) < 200)`;
    while (!(await page.evaluate(filled))) {
      if (performance.now() - started > 30_000) throw new Error(`rows around ${middle} were not filled within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    console.log(`job table jump to row ${middle.toLocaleString("en")}: rows filled in ${ms(performance.now() - started)}`);
    await page.close();

    // The editor's DAG view of a large pipeline.
    const dagTimes: number[] = [];
    let editor!: Page;
    for (let attempt = 0; attempt < Math.min(REPEATS, 3); attempt++) {
      if (editor) await editor.close();
      editor = await open(`/pipelines/${saved.data.id}`);
      await editor.locator(DAG_NODE).first().waitFor({ timeout: 60_000 });
      dagTimes.push(performance.now() - started);
    }
    const drawn = await editor.locator(DAG_NODE).count();
    console.log(`editor with the DAG of ${RULES} rules: nodes drawn after cold ${ms(dagTimes[0]!)}, warm median ${ms(median(dagTimes.slice(1)))} (${drawn} node elements in the page)`);
    const pane = editor.locator(".react-flow__pane").first();
    const box = await pane.boundingBox();
    if (box) {
      await editor.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      const panning = frameIntervals(editor, "(count) => {}", 120);
      for (let step = 0; step < 20; step++) await editor.mouse.wheel(0, step < 10 ? -240 : 240);
      console.log(`DAG zoom in and out (20 wheel steps): ${frameSummary(await panning, frame)}`);
    }
    await editor.close();
    console.log(errors.length === 0 ? "no page error" : `page errors:\n${errors.join("\n")}`);
  } finally {
    await browser.close();
    await service.close();
  }
}

await main();
