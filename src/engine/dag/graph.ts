/**
 * The job graph: adjacency in compact arrays, topological levels (Kahn's algorithm), cycle paths, the
 * critical path and a display order. Every algorithm is iterative, so a chain of any length works.
 */
import { EngineError } from "../findings.js";
import type { Expansion, Job } from "../expand/expand.js";
import { inferEdges, type EdgeList } from "./edges.js";

export interface JobGraph {
  jobs: Job[];
  edges: EdgeList;
  /** Successors of job i: succ[succStart[i] .. succStart[i+1]). */
  succStart: Int32Array;
  succ: Int32Array;
  predStart: Int32Array;
  pred: Int32Array;
  /** Level of each job: 0 for jobs without predecessors, else 1 + the highest level among them. */
  level: Int32Array;
  levelCount: number;
  /** Jobs in display order: by level, then in creation order (rule order, then sample order). */
  order: Int32Array;
}

/** Builds the graph of an expansion; a cycle is an error that names its path. */
export function buildGraph(expansion: Expansion): JobGraph {
  const jobs = expansion.jobs;
  const edges = inferEdges(jobs);
  const n = jobs.length;
  const { start: succStart, items: succ } = adjacency(n, edges.count, edges.from, edges.to);
  const { start: predStart, items: pred } = adjacency(n, edges.count, edges.to, edges.from);

  const indegree = new Int32Array(n);
  for (let i = 0; i < n; i++) indegree[i] = predStart[i + 1]! - predStart[i]!;
  const level = new Int32Array(n);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (let i = 0; i < n; i++) if (indegree[i] === 0) queue[tail++] = i;
  while (head < tail) {
    const node = queue[head++]!;
    for (let k = succStart[node]!; k < succStart[node + 1]!; k++) {
      const next = succ[k]!;
      if (level[node]! + 1 > level[next]!) level[next] = level[node]! + 1;
      indegree[next] = indegree[next]! - 1;
      if (indegree[next] === 0) queue[tail++] = next;
    }
  }
  if (tail < n) {
    const cycle = findCycle(n, succStart, succ, indegree);
    const names = cycle.map((i) => jobs[i]!.name);
    const first = jobs[cycle[0]!]!;
    throw new EngineError("DAG_ERROR", `cycle detected in workflow DAG: ${names.join(" → ")}`, {
      rule: first.template,
      at: first.rule.origin.source.locate(first.rule.origin.path),
      suggestion: "a rule cannot need, directly or through other rules, a file it produces itself; break the loop",
    });
  }
  let levelCount = 0;
  for (let i = 0; i < n; i++) if (level[i]! + 1 > levelCount) levelCount = level[i]! + 1;
  const order = displayOrder(jobs, level, levelCount);
  return { jobs, edges, succStart, succ, predStart, pred, level, levelCount, order };
}

function adjacency(n: number, count: number, from: Int32Array, to: Int32Array): { start: Int32Array; items: Int32Array } {
  const start = new Int32Array(n + 1);
  for (let e = 0; e < count; e++) start[from[e]! + 1]!++;
  for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
  const fill = start.slice(0, n);
  const items = new Int32Array(count);
  for (let e = 0; e < count; e++) items[fill[from[e]!]!++] = to[e]!;
  return { start, items };
}

/** Finds one cycle among the jobs Kahn's algorithm could not order (indegree still > 0), closing node repeated. */
function findCycle(n: number, succStart: Int32Array, succ: Int32Array, indegree: Int32Array): number[] {
  const state = new Uint8Array(n); // 0 unvisited, 1 on stack, 2 done
  const onStackAt = new Int32Array(n).fill(-1);
  for (let root = 0; root < n; root++) {
    if (indegree[root] === 0 || state[root] !== 0) continue;
    const stack: number[] = [root];
    const cursor: number[] = [succStart[root]!];
    state[root] = 1;
    onStackAt[root] = 0;
    while (stack.length > 0) {
      const top = stack.length - 1;
      const node = stack[top]!;
      if (cursor[top]! < succStart[node + 1]!) {
        const next = succ[cursor[top]!++]!;
        if (indegree[next] === 0) continue;
        if (state[next] === 1) return [...stack.slice(onStackAt[next]!), next];
        if (state[next] === 0) {
          state[next] = 1;
          onStackAt[next] = stack.length;
          stack.push(next);
          cursor.push(succStart[next]!);
        }
      } else {
        state[node] = 2;
        onStackAt[node] = -1;
        stack.pop();
        cursor.pop();
      }
    }
  }
  return [];
}

/**
 * Display order: by level; within a level, jobs keep the order they were created in (rules in file order,
 * instances in sample-sheet order). A stable counting sort, so ordering a million jobs costs one pass.
 */
function displayOrder(jobs: Job[], level: Int32Array, levelCount: number): Int32Array {
  const starts = new Int32Array(levelCount + 1);
  for (let i = 0; i < jobs.length; i++) starts[level[i]! + 1]!++;
  for (let l = 0; l < levelCount; l++) starts[l + 1]! += starts[l]!;
  const order = new Int32Array(jobs.length);
  for (let i = 0; i < jobs.length; i++) order[starts[level[i]!]!++] = i;
  return order;
}

/** The longest path by number of jobs; ties go to the alphabetically first job at each step. */
export function criticalPath(graph: JobGraph): string[] {
  const n = graph.jobs.length;
  if (n === 0) return [];
  const length = new Int32Array(n);
  const via = new Int32Array(n).fill(-1);
  const name = (i: number): string => graph.jobs[i]!.name;
  // Process in order of level, which is a topological order.
  for (const node of graph.order) {
    let best = -1;
    for (let k = graph.predStart[node]!; k < graph.predStart[node + 1]!; k++) {
      const parent = graph.pred[k]!;
      if (best < 0 || length[parent]! > length[best]! || (length[parent] === length[best] && name(parent) < name(best))) best = parent;
    }
    length[node] = best < 0 ? 1 : length[best]! + 1;
    via[node] = best;
  }
  let end = 0;
  for (let i = 1; i < n; i++) if (length[i]! > length[end]! || (length[i] === length[end] && name(i) < name(end))) end = i;
  const path: string[] = [];
  for (let node = end; node >= 0; node = via[node]!) path.push(name(node));
  return path.reverse();
}

/** All jobs upstream (or downstream) of the given ones, including them, as a membership mask. */
export function closure(graph: JobGraph, seeds: Iterable<number>, direction: "upstream" | "downstream"): Uint8Array {
  const [start, items] = direction === "upstream" ? [graph.predStart, graph.pred] : [graph.succStart, graph.succ];
  const keep = new Uint8Array(graph.jobs.length);
  const stack: number[] = [];
  for (const seed of seeds) {
    if (!keep[seed]) {
      keep[seed] = 1;
      stack.push(seed);
    }
  }
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (let k = start[node]!; k < start[node + 1]!; k++) {
      const next = items[k]!;
      if (!keep[next]) {
        keep[next] = 1;
        stack.push(next);
      }
    }
  }
  return keep;
}
