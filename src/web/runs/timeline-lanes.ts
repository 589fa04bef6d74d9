/** The timeline's lanes: jobs that ran at once stack, each in the first lane free when it started. Pure. */
import type { JobRow } from "../api/runs.js";

/** A started job as a bar: from its start to its end (or now, running), in a lane. */
export interface Bar {
  job: JobRow;
  from: number;
  to: number;
  lane: number;
}

/**
 * Packs started jobs into as few lanes as keep them apart (first free lane, by start time), at most
 * `maxLanes`: a job that finds none is not drawn (`hidden` counts them). `start` and `end` span the bars.
 */
export function packLanes(items: JobRow[], now: number, maxLanes: number): { bars: Bar[]; start: number; end: number; lanes: number; hidden: number } {
  const started = items
    .filter((job) => job.started_at)
    .map((job) => ({ job, from: Date.parse(job.started_at!), to: job.finished_at ? Date.parse(job.finished_at) : job.status === "running" ? now : Date.parse(job.started_at!) + (job.duration_ms ?? 0) }))
    .sort((a, b) => a.from - b.from);
  const laneEnds: number[] = [];
  const bars: Bar[] = [];
  let hidden = 0;
  for (const bar of started) {
    let lane = laneEnds.findIndex((endAt) => endAt <= bar.from);
    if (lane < 0) {
      if (laneEnds.length >= maxLanes) {
        hidden++;
        continue;
      }
      lane = laneEnds.length;
      laneEnds.push(bar.to);
    } else laneEnds[lane] = bar.to;
    bars.push({ ...bar, lane });
  }
  const start = started.length ? started[0]!.from : now;
  const end = started.reduce((latest, bar) => Math.max(latest, bar.to), start);
  return { bars, start, end, lanes: Math.max(1, laneEnds.length), hidden };
}
