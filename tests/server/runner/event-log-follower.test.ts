/**
 * The event-log follower reads a file jobs can write (issue 25, review of finding 7): a job that appends
 * events without end must not hold the service's event loop, nor make it read, keep or publish without
 * bound. Against real files: each drain reads a bounded amount, the follower stops at its total cap and
 * says so once, and the fold of a run tracks a bounded number of jobs.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EventLogFollower } from "../../../src/server/runner/event-log-follower.js";
import { RunProgress } from "../../../src/server/runner/run-progress.js";
import type { RunEvent } from "../../../src/engine/run/event-log.js";
import { removeTempDirs, tempDir } from "../../support/temp-workspace.js";

afterAll(removeTempDirs);

/** `count` job_started lines of about 100 bytes each. */
function jobLines(count: number, from = 0): string {
  let text = "";
  for (let index = from; index < from + count; index++) text += `${JSON.stringify({ run_id: "r1", type: "job_started", time: "2026-11-28T10:00:00.000Z", job: `job-${index}`, rule: "r", seq: index + 1 })}\n`;
  return text;
}

describe("EventLogFollower", () => {
  it("reads at most its drain size per read, and stops for good at its total cap, saying so once", () => {
    const root = tempDir();
    mkdirSync(join(root, ".strand"), { recursive: true });
    const path = join(root, ".strand", "events.jsonl");
    writeFileSync(path, jobLines(20_000));
    const seen: RunEvent[] = [];
    const notes: string[] = [];
    const follower = new EventLogFollower(root, path, (event) => seen.push(event), 500, { drainBytes: 64 * 1024, totalBytes: 1024 * 1024, onCapped: (note) => notes.push(note) });
    follower.drain();
    const firstDrain = seen.length;
    expect(firstDrain).toBeGreaterThan(0);
    expect(firstDrain * 90).toBeLessThanOrEqual(64 * 1024);
    follower.drainAll();
    const atCap = seen.length;
    expect(atCap * 90).toBeLessThanOrEqual(1024 * 1024);
    expect(atCap).toBeLessThan(20_000);
    appendFileSync(path, jobLines(1000, 20_000));
    follower.drain();
    follower.drainAll();
    expect(seen.length).toBe(atCap);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/event log .* beyond 1 MiB/);
    follower.stop();
  });
});

describe("RunProgress", () => {
  it("follows at most its cap of jobs one by one, and still counts the run", () => {
    const progress = new RunProgress({ maxJobs: 100 });
    progress.apply({ run_id: "r1", type: "run_started", time: "2026-11-28T10:00:00.000Z", jobs_total: 500, jobs_to_run: 500, seq: 1 } as RunEvent);
    for (let index = 0; index < 500; index++) progress.apply({ run_id: "r1", type: "job_started", time: "2026-11-28T10:00:00.000Z", job: `job-${index}`, rule: "r", seq: index + 2 } as RunEvent);
    expect(progress.jobs.size).toBe(100);
    expect(progress.counts().total).toBe(500);
  });
});
