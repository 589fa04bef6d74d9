/**
 * Two drawings of the run and editor pages, as pure functions: large fan-outs of the graph folded into one
 * node each (src/web/dag/drawn-graph.ts: its edges kept, its state the most pressing member's, its job
 * counts summed, unfolded when expanded), and the timeline's lanes (src/web/runs/timeline-lanes.ts: jobs
 * that ran at once stack, the first free lane reused, jobs past the last lane counted, not drawn).
 */
import { describe, expect, it } from "vitest";
import type { JobRow } from "../../src/web/api/runs.js";
import { aggregateFanOuts, GROUP_PREFIX, type DagEdge, type DagNode } from "../../src/web/dag/drawn-graph.js";
import { packLanes } from "../../src/web/runs/timeline-lanes.js";

/** A fan-out: `split` feeding `count` sibling rules that all feed `merge`. */
function fanOut(count: number, state: (index: number) => Partial<DagNode> = () => ({})): { nodes: DagNode[]; edges: DagEdge[] } {
  const siblings = Array.from({ length: count }, (_, index) => ({ id: `s${String(index).padStart(2, "0")}`, label: `sample_${index}`, ...state(index) }));
  return {
    nodes: [{ id: "split", label: "split" }, ...siblings, { id: "merge", label: "merge" }],
    edges: siblings.flatMap((node) => [
      { source: "split", target: node.id },
      { source: node.id, target: "merge" },
    ]),
  };
}

describe("the drawn graph", () => {
  it("draws a fan-out of no more than the threshold as it is", () => {
    const graph = fanOut(3);
    const drawn = aggregateFanOuts(graph.nodes, graph.edges, 3, new Set());
    expect(drawn.nodes).toBe(graph.nodes);
    expect(drawn.groups.size).toBe(0);
  });

  it("folds a larger fan-out into one node between the same neighbours, each edge drawn once", () => {
    const graph = fanOut(5);
    const drawn = aggregateFanOuts(graph.nodes, graph.edges, 3, new Set());
    const group = `${GROUP_PREFIX}s00`;
    expect(drawn.nodes.map((node) => node.id)).toEqual(["split", "merge", group]);
    expect(drawn.nodes.find((node) => node.id === group)?.label).toBe("sample_0 … sample_4");
    expect(drawn.edges).toEqual([
      { source: "split", target: group },
      { source: group, target: "merge" },
    ]);
    expect(drawn.groups.get(group)).toEqual(["s00", "s01", "s02", "s03", "s04"]);
  });

  it("gives a folded node its most pressing member's state and the sum of their jobs", () => {
    const jobs = { total: 2, completed: 1, failed: 0, running: 1, skipped: 0 };
    const graph = fanOut(4, (index) => ({ status: index === 2 ? "failed" : index === 3 ? "running" : "completed", jobs }));
    const [, , group] = aggregateFanOuts(graph.nodes, graph.edges, 3, new Set()).nodes;
    expect(group).toMatchObject({ status: "failed", jobs: { total: 8, completed: 4, failed: 0, running: 4, skipped: 0 } });
  });

  it("draws an expanded fan-out's rules again, and never folds rules with no neighbours", () => {
    const graph = fanOut(5);
    expect(aggregateFanOuts(graph.nodes, graph.edges, 3, new Set([`${GROUP_PREFIX}s00`])).nodes).toHaveLength(7);
    const loose = Array.from({ length: 6 }, (_, index) => ({ id: `n${index}`, label: `n${index}` }));
    expect(aggregateFanOuts(loose, [], 3, new Set()).nodes).toBe(loose);
  });
});

/** A job row of the timeline: started `from` seconds in, ended `to` seconds in (or running). */
function job(index: number, from: number, to: number | null, status: JobRow["status"] = to === null ? "running" : "completed"): JobRow {
  const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000).toISOString();
  return { index, job: `j${index}`, rule: "r", status, started_at: at(from), finished_at: to === null ? null : at(to), duration_ms: to === null ? null : (to - from) * 1000 } as JobRow;
}

describe("the timeline's lanes", () => {
  const start = Date.UTC(2026, 0, 1);
  it("stack jobs that ran at once and reuse a lane once it is free", () => {
    const drawn = packLanes([job(0, 0, 10), job(1, 2, 5), job(2, 6, 8), job(3, 11, 12)], start + 20_000, 48);
    expect(drawn.bars.map((bar) => [bar.job.job, bar.lane])).toEqual([
      ["j0", 0],
      ["j1", 1],
      ["j2", 1],
      ["j3", 0],
    ]);
    expect(drawn).toMatchObject({ lanes: 2, hidden: 0, start, end: start + 12_000 });
  });

  it("draws a running job up to now, and leaves out jobs that have not started", () => {
    const now = start + 30_000;
    const drawn = packLanes([job(0, 5, null), { ...job(1, 0, 1), started_at: null } as JobRow], now, 48);
    expect(drawn.bars.map((bar) => [bar.job.job, bar.from, bar.to])).toEqual([["j0", start + 5_000, now]]);
  });

  it("counts the jobs that find no lane past the last one, and has one lane when nothing started", () => {
    const drawn = packLanes([job(0, 0, 10), job(1, 1, 10), job(2, 2, 10)], start + 20_000, 2);
    expect(drawn.bars).toHaveLength(2);
    expect(drawn.hidden).toBe(1);
    expect(packLanes([], start, 48)).toEqual({ bars: [], start, end: start, lanes: 1, hidden: 0 });
  });
});
