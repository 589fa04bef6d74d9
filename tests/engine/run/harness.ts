/**
 * Running a pipeline for engine tests: write `main.oxoflow` into a fresh folder, load it, run it to the
 * end with `startRun`, and read its event log; plus the checks every run test makes on that log.
 */
import { afterAll, beforeAll, expect } from "vitest";
import { loadPipeline } from "../../../src/engine/format/load.js";
import type { Pipeline } from "../../../src/engine/format/model.js";
import { readEventLog, type RunEvent } from "../../../src/engine/run/event-log.js";
import { startRun, type RunOptions, type RunResult } from "../../../src/engine/run/run-pipeline.js";
import { tempDir, writeFile } from "../../support/temp-workspace.js";

export interface FinishedRun {
  dir: string;
  pipeline: Pipeline;
  result: RunResult;
  events: RunEvent[];
  /** Wall time of the whole run, in milliseconds. */
  elapsedMs: number;
}

/** Writes `main.oxoflow` (a `[workflow]` header named `name`, then `body`) into `dir`, loads it and runs it to the end. */
export async function runWorkflow(name: string, body: string, options: RunOptions = {}, dir = tempDir()): Promise<FinishedRun> {
  const path = writeFile(dir, "main.oxoflow", `[workflow]\nname = "${name}"\n\n${body}`);
  const pipeline = await loadPipeline(path);
  const started = performance.now();
  const result = await startRun(pipeline, options).result;
  return { dir, pipeline, result, events: readEventLog(result.eventsPath), elapsedMs: performance.now() - started };
}

/** The events of one type. */
export const ofType = (events: RunEvent[], type: RunEvent["type"]): RunEvent[] => events.filter((event) => event.type === type);

/** The job names of the events of one type, in log order. */
export const namesOf = (events: RunEvent[], type: RunEvent["type"]): string[] => ofType(events, type).map((event) => event.job as string);

/** The first event of a type about one job. */
export const eventFor = (events: RunEvent[], type: RunEvent["type"], job: string): RunEvent | undefined => events.find((event) => event.type === type && event.job === job);

/** Every run, whatever happened, ends with exactly one run_finished event carrying its status and counts. */
export function expectFinished(run: FinishedRun, status: RunResult["status"]): RunEvent {
  expect(run.result.status).toBe(status);
  const finished = ofType(run.events, "run_finished");
  expect(finished).toHaveLength(1);
  expect(finished[0]!.status).toBe(status);
  expect(finished[0]!.counts).toEqual(run.result.counts);
  expect(run.events.at(-1)!.type).toBe("run_finished");
  return finished[0]!;
}

/**
 * Environment set-up takes a lock under ~/.strand/locks by default; keeps it inside the test's folders for
 * the file that calls this (registers its own beforeAll/afterAll).
 */
export function isolateEnvironmentLocks(): void {
  const saved = process.env.STRAND_LOCK_DIR;
  beforeAll(() => {
    process.env.STRAND_LOCK_DIR = tempDir();
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.STRAND_LOCK_DIR;
    else process.env.STRAND_LOCK_DIR = saved;
  });
}
