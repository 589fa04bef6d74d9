/**
 * `npm run bench:runs`: many runs at once through the service, and how fast their events reach many
 * event-stream subscribers.
 *
 * Starts `strand serve` as its own process (rate limit off, a fresh data directory).
 * Phase A, creation: fires 100 `POST /api/runs` of a three-rule chain (a → b → c through files) at once and
 * times the 201s (whole batch and p50/p99 per request), then the time until every run is terminal (followed
 * on `GET /api/events`, with a poll of `GET /api/runs` as a fallback), and checks that every run is
 * `completed` with counts {total 3, completed 3, others 0} and its final file holds what the chain wrote.
 * Phase B, fan-out: opens 500 subscribers of `GET /api/events` (raw `node:http`, one socket each), waits
 * until `/api/metrics` counts all 500, then runs pipelines and, for every job event each subscriber
 * received, computes delay = (receive time in this process) − (the `time` the engine wrote in the run's
 * events.jsonl), matched by run id + job + type. Two scenarios, reported separately: "trickle" (one run of
 * 60 jobs of `sleep 0.05` at 2 jobs at once: a steady stream of events) and "burst" (8 runs of 25 `true`
 * jobs at 4 jobs at once, started together). The delay is split at the bus's publish time (the SSE
 * message's own `time`) into engine → publish (the service noticing the log line) and publish → receive.
 * Times in the event log are whole milliseconds (rounded down), so each figure carries up to 1 ms of that;
 * the 500 subscribers share this process, so the receive times include its own queueing. Each scenario also
 * prints the CPU time the service and this process used while it ran (service CPU per delivery).
 * Goals: every run completes with correct counts; p99 fan-out delay under 100 ms (trickle scenario).
 * Options: `--runs N` (phase A), `--subscribers N` (phase B).
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import type { RunCounts } from "../src/server/store/runs/contract.js";
import { option, startService } from "./service-process.js";


const RUNS = Number(option("runs") ?? 100);
const SUBSCRIBERS = Number(option("subscribers") ?? 500);
const FANOUT_GOAL_MS = 100;
const TERMINAL = new Set(["completed", "failed", "cancelled"]);
const JOB_EVENTS = new Set(["job_started", "job_completed", "job_failed", "job_skipped"]);

/** The phase A pipeline: three rules chained through their files. */
const CHAIN = `[workflow]
name = "bench-chain"
version = "1.0"

[[rules]]
name = "first"
output = ["a.txt"]
shell = "echo a > {output[0]}"

[[rules]]
name = "second"
input = ["a.txt"]
output = ["b.txt"]
shell = "cat {input[0]} > {output[0]}; echo b >> {output[0]}"

[[rules]]
name = "third"
input = ["b.txt"]
output = ["c.txt"]
shell = "cat {input[0]} > {output[0]}; echo c >> {output[0]}"
target = true
`;
const CHAIN_JOBS = 3;
const CHAIN_OUTPUT = "a\nb\nc\n";

/** One rule over `jobs` values, each job running `command` and touching its own output. */
function manyJobs(name: string, jobs: number, command: string): string {
  const values = Array.from({ length: jobs }, (_, i) => `"v${i}"`).join(", ");
  return `[workflow]\nname = "${name}"\nversion = "1.0"\n\n[[values]]\nname = "i"\nvalues = [${values}]\n\n[[rules]]\nname = "work"\noutput = ["out/{i}.txt"]\nshell = "${command}; mkdir -p out; touch {output[0]}"\n`;
}

/** Wall-clock time in ms with sub-millisecond resolution (comparable with the engine's ISO times). */
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


/** CPU time (user + system) of a process so far in ms, from /proc (NaN where there is none). */
function cpuMsOf(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 1/100 s
  } catch {
    return NaN;
  }
}

/** Stops the service and waits (up to 10 s) for it to exit. */
async function stopService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}


interface RunRecord {
  id: string;
  status: string;
  workspace: string | null;
  counts: RunCounts;
  exit_code: number | null;
  error: string | null;
}

async function getJson<T>(url: string): Promise<T> {
  const answer = await fetch(url);
  if (answer.status !== 200) throw new Error(`GET ${url}: ${answer.status} ${(await answer.text()).slice(0, 300)}`);
  return (await answer.json()) as T;
}

/** `POST /api/runs`; resolves with the new run and the request's round trip in ms. */
async function createRun(url: string, body: Record<string, unknown>): Promise<{ run: RunRecord; ms: number }> {
  const started = performance.now();
  const answer = await fetch(`${url}/api/runs`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await answer.text();
  const ms = performance.now() - started;
  if (answer.status !== 201) throw new Error(`POST /api/runs: ${answer.status} ${text.slice(0, 300)}`);
  return { run: JSON.parse(text) as RunRecord, ms };
}

/** One SSE message as received: its parsed record and when the chunk that completed it arrived. */
interface Message {
  at: number;
  type: string;
  time: string;
  data: Record<string, unknown>;
}

/**
 * A subscriber of `GET /api/events` on its own socket (`agent: false`). The data handler only stamps and
 * keeps each chunk, so a burst to many subscribers costs this process as little as possible; `messages()`
 * parses afterwards. With `onMessage`, messages are parsed as they come (for the one follower of phase A).
 */
class SseClient {
  private readonly chunks: { at: number; chunk: Buffer }[] = [];
  private request: http.ClientRequest | undefined;
  private parsed: Message[] = [];
  private parsedChunks = 0;
  private rest = "";
  /** Messages handed to `onMessage` so far. */
  private delivered = 0;
  ended = false;

  constructor(
    private readonly url: string,
    private readonly onMessage?: (message: Message) => void,
  ) {}

  /** Resolves once the 200 and its headers have arrived. */
  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const request = http.get(`${this.url}/api/events`, { agent: false, headers: { accept: "text/event-stream" } }, (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`GET /api/events: ${response.statusCode}`));
          response.resume();
          return;
        }
        response.on("data", (chunk: Buffer) => {
          this.chunks.push({ at: now(), chunk });
          if (this.onMessage) {
            const messages = this.messages();
            for (; this.delivered < messages.length; this.delivered++) this.onMessage(messages[this.delivered]!);
          }
        });
        response.on("end", () => (this.ended = true));
        response.on("error", () => (this.ended = true));
        resolve();
      });
      request.on("error", (error) => {
        this.ended = true;
        reject(error);
      });
      this.request = request;
    });
  }

  /** Every complete message so far, in order (parses only chunks not parsed before). */
  messages(): Message[] {
    for (; this.parsedChunks < this.chunks.length; this.parsedChunks++) {
      const { at, chunk } = this.chunks[this.parsedChunks]!;
      this.rest += chunk.toString("utf8");
      let end: number;
      while ((end = this.rest.indexOf("\n\n")) >= 0) {
        const block = this.rest.slice(0, end);
        this.rest = this.rest.slice(end + 2);
        const data = block
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).replace(/^ /, ""))
          .join("\n");
        if (data === "") continue; // a `: ping` comment
        const record = JSON.parse(data) as Omit<Message, "at">;
        this.parsed.push({ at, type: record.type, time: record.time, data: record.data ?? {} });
      }
    }
    return this.parsed;
  }

  close(): void {
    this.request?.destroy();
  }
}

/** The value at quantile `q` of ascending `sorted` (nearest rank). */
function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

const pad = (text: string, width: number) => text.padEnd(width);
const num = (value: number, digits = 1) => (Number.isNaN(value) ? "–" : value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }));
const countsText = (c: RunCounts | undefined) => (c ? `total ${c.total}, completed ${c.completed}, failed ${c.failed}, running ${c.running}, skipped ${c.skipped}, pending ${c.pending}` : "no counts");

interface CreationResult {
  created: number;
  createMs: number;
  postP50: number;
  postP99: number;
  allTerminalMs: number;
  runsPerSecond: number;
  bad: string[];
  seenOnStream: number;
}

/** Phase A: RUNS creations at once, then until all are terminal, then the check of each. */
async function phaseCreation(url: string): Promise<CreationResult> {
  const terminalAt = new Map<string, number>();
  const follower = new SseClient(url, (message) => {
    const id = message.data.run_id;
    if (typeof id === "string" && (message.type === "run_completed" || message.type === "run_failed" || message.type === "run_cancelled") && !terminalAt.has(id)) terminalAt.set(id, message.at);
  });
  await follower.connect();
  const seenOnStream = new Set<string>();

  const started = performance.now();
  const startedWall = now();
  const created = await Promise.all(Array.from({ length: RUNS }, () => createRun(url, { toml_content: CHAIN })));
  const createMs = performance.now() - started;
  const ids = created.map(({ run }) => run.id);
  const latencies = created.map(({ ms }) => ms).sort((a, b) => a - b);
  process.stderr.write(`  ${RUNS} runs created in ${num(createMs, 0)} ms; waiting for them to finish …\n`);

  // Until every run is terminal: the stream says so first; a poll of the list covers a missed event.
  const deadline = performance.now() + 90_000;
  const polledAt = new Map<string, number>();
  let lastPoll = 0;
  const pending = () => ids.filter((id) => !terminalAt.has(id) && !polledAt.has(id));
  while (pending().length > 0 && performance.now() < deadline) {
    if (performance.now() - lastPoll > 1000) {
      lastPoll = performance.now();
      for (const status of TERMINAL) {
        const page = await getJson<{ items: RunRecord[] }>(`${url}/api/runs?limit=500&status=${status}`);
        for (const run of page.items) if (!polledAt.has(run.id)) polledAt.set(run.id, now());
      }
    }
    await sleep(20);
  }
  for (const id of ids) if (terminalAt.has(id)) seenOnStream.add(id);
  const doneAt = Math.max(...ids.map((id) => Math.min(terminalAt.get(id) ?? Infinity, polledAt.get(id) ?? Infinity)));
  const allTerminalMs = doneAt - startedWall;
  follower.close();

  const bad: string[] = [];
  for (const id of ids) {
    const run = await getJson<RunRecord>(`${url}/api/runs/${id}`);
    const c = run.counts;
    const countsRight = c && c.total === CHAIN_JOBS && c.completed === CHAIN_JOBS && c.failed === 0 && c.running === 0 && c.skipped === 0 && c.pending === 0;
    let output = "";
    try {
      output = run.workspace ? readFileSync(join(run.workspace, "c.txt"), "utf8") : "";
    } catch {
      output = "(missing)";
    }
    const problems: string[] = [];
    if (run.status !== "completed") problems.push(`status ${run.status}${run.error ? ` (${run.error})` : ""}`);
    if (!countsRight) problems.push(`counts ${countsText(c)}`);
    if (run.status === "completed" && run.exit_code !== 0) problems.push(`exit code ${run.exit_code}`);
    if (output !== CHAIN_OUTPUT) problems.push(`c.txt ${JSON.stringify(output)}`);
    if (!seenOnStream.has(id) && TERMINAL.has(run.status)) problems.push("no run_completed/run_failed on /api/events");
    if (problems.length > 0) bad.push(`${id}: ${problems.join("; ")}`);
  }
  return {
    created: created.length,
    createMs,
    postP50: quantile(latencies, 0.5),
    postP99: quantile(latencies, 0.99),
    allTerminalMs,
    runsPerSecond: RUNS / (allTerminalMs / 1000),
    bad,
    seenOnStream: seenOnStream.size,
  };
}

interface FanoutResult {
  scenario: string;
  runs: number;
  jobEvents: number;
  expectedDeliveries: number;
  deliveries: number;
  unmatched: number;
  lagged: number;
  laggedMissed: number;
  subscribersLagged: number;
  eventSpanMs: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  toPublishP50: number;
  toPublishP99: number;
  fromPublishP50: number;
  fromPublishP99: number;
  /** CPU used by the service and by this process while the scenario ran. */
  serviceCpuMs: number;
  benchCpuMs: number;
  bad: string[];
}

/**
 * One fan-out scenario: starts the runs, waits until they are terminal and every subscriber has heard so,
 * then matches each subscriber's job events with the engine's event logs.
 */
async function fanoutScenario(url: string, servicePid: number | undefined, subscribers: SseClient[], scenario: string, starts: { body: Record<string, unknown>; jobs: number }[]): Promise<FanoutResult> {
  const baseline = subscribers.map((subscriber) => subscriber.messages().length);
  const serviceCpuBefore = cpuMsOf(servicePid);
  const benchCpuBefore = process.cpuUsage();
  const runs = (await Promise.all(starts.map(({ body }) => createRun(url, body)))).map(({ run }) => run);
  const ids = new Set(runs.map((run) => run.id));
  const deadline = performance.now() + 60_000;
  const finals = new Map<string, RunRecord>();
  while (finals.size < runs.length && performance.now() < deadline) {
    await sleep(250);
    for (const run of runs) {
      if (finals.has(run.id)) continue;
      const current = await getJson<RunRecord>(`${url}/api/runs/${run.id}`);
      if (TERMINAL.has(current.status)) finals.set(run.id, current);
    }
  }
  // Every subscriber has the runs' terminal events (or lagged past them), or 10 s have gone by.
  const heardAll = (subscriber: SseClient, index: number) => {
    const heard = new Set<string>();
    for (const message of subscriber.messages().slice(baseline[index])) {
      const id = message.data.run_id;
      if (typeof id === "string" && ids.has(id) && message.type.startsWith("run_") && message.type !== "run_queued" && message.type !== "run_started") heard.add(id);
    }
    return heard.size === ids.size || subscriber.ended;
  };
  const waitUntil = performance.now() + 10_000;
  while (!subscribers.every(heardAll) && performance.now() < waitUntil) await sleep(100);
  const serviceCpuMs = cpuMsOf(servicePid) - serviceCpuBefore;
  const benchCpu = process.cpuUsage(benchCpuBefore);

  // The engine's write time of each job event: run id + job + type (no retries here, so each is unique).
  const written = new Map<string, number>();
  let firstWrite = Infinity;
  let lastWrite = -Infinity;
  const bad: string[] = [];
  runs.forEach((run, index) => {
    const final = finals.get(run.id);
    const expected = starts[index]!.jobs;
    if (!final) bad.push(`${run.id}: not terminal after 60 s`);
    else if (final.status !== "completed" || final.counts.completed !== expected || final.counts.total !== expected) bad.push(`${run.id}: ${final.status}, ${countsText(final.counts)}`);
    const log = join(run.workspace!, ".strand", "runs", run.id, "events.jsonl");
    if (!existsSync(log)) {
      bad.push(`${run.id}: no event log`);
      return;
    }
    for (const line of readFileSync(log, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      const event = JSON.parse(line) as { type: string; time: string; job?: string };
      if (!JOB_EVENTS.has(event.type)) continue;
      const time = Date.parse(event.time);
      written.set(`${run.id}\0${event.job}\0${event.type}`, time);
      firstWrite = Math.min(firstWrite, time);
      lastWrite = Math.max(lastWrite, time);
    }
  });

  const delays: number[] = [];
  const toPublish: number[] = [];
  const fromPublish: number[] = [];
  let unmatched = 0;
  let lagged = 0;
  let laggedMissed = 0;
  let subscribersLagged = 0;
  subscribers.forEach((subscriber, index) => {
    let lagging = false;
    for (const message of subscriber.messages().slice(baseline[index])) {
      if (message.type === "lagged") {
        lagged++;
        laggedMissed += Number(message.data.missed ?? 0);
        lagging = true;
        continue;
      }
      const id = message.data.run_id;
      if (typeof id !== "string" || !ids.has(id) || !JOB_EVENTS.has(message.type)) continue;
      const wrote = written.get(`${id}\0${String(message.data.job)}\0${message.type}`);
      if (wrote === undefined) {
        unmatched++;
        continue;
      }
      const published = Date.parse(message.time);
      delays.push(message.at - wrote);
      toPublish.push(published - wrote);
      fromPublish.push(message.at - published);
    }
    if (lagging) subscribersLagged++;
  });
  for (const list of [delays, toPublish, fromPublish]) list.sort((a, b) => a - b);
  return {
    scenario,
    runs: runs.length,
    jobEvents: written.size,
    expectedDeliveries: written.size * subscribers.length,
    deliveries: delays.length,
    unmatched,
    lagged,
    laggedMissed,
    subscribersLagged,
    eventSpanMs: lastWrite - firstWrite,
    p50: quantile(delays, 0.5),
    p90: quantile(delays, 0.9),
    p99: quantile(delays, 0.99),
    max: delays[delays.length - 1] ?? NaN,
    toPublishP50: quantile(toPublish, 0.5),
    toPublishP99: quantile(toPublish, 0.99),
    fromPublishP50: quantile(fromPublish, 0.5),
    fromPublishP99: quantile(fromPublish, 0.99),
    serviceCpuMs,
    benchCpuMs: (benchCpu.user + benchCpu.system) / 1000,
    bad,
  };
}

/** Phase B: SUBSCRIBERS subscribers, then the trickle and burst scenarios. */
async function phaseFanout(url: string, servicePid: number | undefined): Promise<{ results: FanoutResult[]; connectMs: number }> {
  const subscribers = Array.from({ length: SUBSCRIBERS }, () => new SseClient(url));
  const started = performance.now();
  try {
    await Promise.all(subscribers.map((subscriber) => subscriber.connect()));
    let counted = 0;
    for (const deadline = performance.now() + 15_000; performance.now() < deadline; ) {
      counted = (await getJson<{ sse_subscribers: number }>(`${url}/api/metrics`)).sse_subscribers;
      if (counted === SUBSCRIBERS) break;
      await sleep(50);
    }
    if (counted !== SUBSCRIBERS) throw new Error(`/api/metrics counts ${counted} event-stream subscribers, expected ${SUBSCRIBERS}`);
    const connectMs = performance.now() - started;
    process.stderr.write(`  ${SUBSCRIBERS} subscribers connected in ${num(connectMs, 0)} ms; trickle scenario …\n`);

    const results: FanoutResult[] = [];
    const trickleJobs = 60;
    results.push(await fanoutScenario(url, servicePid, subscribers, "trickle", [{ body: { toml_content: manyJobs("bench-trickle", trickleJobs, "sleep 0.05"), jobs: 2 }, jobs: trickleJobs }]));
    process.stderr.write(`  burst scenario …\n`);
    const burstJobs = 25;
    const burst = Array.from({ length: 8 }, (_, i) => ({ body: { toml_content: manyJobs(`bench-burst-${i}`, burstJobs, "true"), jobs: 4 }, jobs: burstJobs }));
    results.push(await fanoutScenario(url, servicePid, subscribers, "burst", burst));
    return { results, connectMs };
  } finally {
    for (const subscriber of subscribers) subscriber.close();
  }
}

async function main(): Promise<void> {
  console.log(`bench:runs — ${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; ${RUNS} runs, ${SUBSCRIBERS} subscribers`);
  const dataDir = mkdtempSync(join(tmpdir(), "strand-bench-runs-"));
  let creation: CreationResult;
  let fanout: { results: FanoutResult[]; connectMs: number };
  try {
    const { url, child } = await startService({ SERVICE_DATA_DIR: join(dataDir, "data") }, join(dataDir, "serve.log"));
    try {
      process.stderr.write(`  phase A: ${RUNS} concurrent run creations …\n`);
      creation = await phaseCreation(url);
      process.stderr.write(`  phase B: ${SUBSCRIBERS} event-stream subscribers …\n`);
      fanout = await phaseFanout(url, child.pid);
    } finally {
      await stopService(child);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  console.log("");
  console.log(`Phase A: ${RUNS} concurrent POST /api/runs of a 3-rule chain`);
  console.log(`  all ${creation.created} answered 201 in   ${num(creation.createMs, 0)} ms   (per request p50 ${num(creation.postP50)} ms, p99 ${num(creation.postP99)} ms)`);
  console.log(`  all terminal after        ${num(creation.allTerminalMs, 0)} ms from the first POST   (${num(creation.runsPerSecond)} runs/s)`);
  console.log(`  terminal event on /api/events for ${creation.seenOnStream} of ${creation.created}`);
  const allGood = creation.bad.length === 0;
  console.log(`  all ${creation.created} completed with correct counts: ${allGood ? "yes" : "no"}`);
  for (const line of creation.bad.slice(0, 20)) console.log(`    ${line}`);
  if (creation.bad.length > 20) console.log(`    … and ${creation.bad.length - 20} more`);

  console.log("");
  console.log(`Phase B: ${SUBSCRIBERS} subscribers of GET /api/events (connected in ${num(fanout.connectMs, 0)} ms); delay = receive − engine's event time`);
  console.log(
    `${pad("scenario", 10)}${pad("runs", 6)}${pad("events", 8)}${pad("span ms", 9)}${pad("deliveries", 18)}${pad("p50 ms", 8)}${pad("p90 ms", 8)}${pad("p99 ms", 8)}${pad("max ms", 8)}${pad("eng→pub p50/p99", 17)}${pad("pub→recv p50/p99", 18)}lagged`,
  );
  for (const r of fanout.results) {
    const deliveries = `${r.deliveries}/${r.expectedDeliveries}`;
    const lagged = r.lagged === 0 ? "0" : `${r.lagged} notices (${r.laggedMissed} missed, ${r.subscribersLagged} subscribers)`;
    console.log(
      `${pad(r.scenario, 10)}${pad(String(r.runs), 6)}${pad(String(r.jobEvents), 8)}${pad(num(r.eventSpanMs, 0), 9)}${pad(deliveries, 18)}${pad(num(r.p50), 8)}${pad(num(r.p90), 8)}${pad(num(r.p99), 8)}${pad(num(r.max), 8)}${pad(`${num(r.toPublishP50)}/${num(r.toPublishP99)}`, 17)}${pad(`${num(r.fromPublishP50)}/${num(r.fromPublishP99)}`, 18)}${lagged}`,
    );
    const perDelivery = (r.serviceCpuMs * 1000) / Math.max(1, r.deliveries);
    console.log(`  ${r.scenario}: CPU while it ran: service ${num(r.serviceCpuMs / 1000, 2)} s (${num(perDelivery)} µs per delivery), this bench process ${num(r.benchCpuMs / 1000, 2)} s`);
    if (r.unmatched > 0) console.log(`  ${r.scenario}: ${r.unmatched} received job events had no matching line in the event logs`);
    for (const line of r.bad) console.log(`  ${r.scenario}: ${line}`);
  }

  const trickle = fanout.results.find((r) => r.scenario === "trickle")!;
  const burst = fanout.results.find((r) => r.scenario === "burst")!;
  const fanoutMet = trickle.p99 < FANOUT_GOAL_MS && trickle.deliveries === trickle.expectedDeliveries && trickle.lagged === 0;
  const runsMet = allGood && fanout.results.every((r) => r.bad.length === 0);
  console.log("");
  console.log(
    `${RUNS} runs: created ${num(creation.createMs / 1000, 2)} s, all terminal ${num(creation.allTerminalMs / 1000, 2)} s, correct counts: ${runsMet ? "met" : "MISSED"}; ` +
      `fan-out to ${SUBSCRIBERS}: trickle p99 ${num(trickle.p99)} ms (goal < ${FANOUT_GOAL_MS} ms, all delivered, no lag: ${fanoutMet ? "met" : "MISSED"}), burst p99 ${num(burst.p99)} ms`,
  );
}

await main();
