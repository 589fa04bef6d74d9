/**
 * What the graph renderers draw (mermaid, SVG): the kept nodes of a rule or job graph with their levels
 * and rules, and the edges between kept nodes, in display order. Renderers take this and return text.
 */
import type { JobGraph } from "./graph.js";

/** A graph ready to draw. */
export interface GraphDrawing {
  /** The pipeline's name. */
  title: string;
  /** Nodes in display order (by level, then creation order). */
  nodes: { name: string; rule: string; level: number }[];
  /** `file`: the target reads what the source writes; `declared`: a `depends_on` without a file. */
  edges: { from: string; to: string; kind: "file" | "declared" }[];
}

/** The drawing of `graph`, limited to the nodes `keep` marks (all when undefined). */
export function graphDrawing(graph: JobGraph, title: string, keep?: Uint8Array): GraphDrawing {
  const nodes = Array.from(graph.order)
    .filter((index) => !keep || keep[index])
    .map((index) => ({ name: graph.jobs[index]!.name, rule: graph.jobs[index]!.template, level: graph.level[index]! }));
  const edges: GraphDrawing["edges"] = [];
  for (let e = 0; e < graph.edges.count; e++) {
    const from = graph.edges.from[e]!;
    const to = graph.edges.to[e]!;
    if (keep && !(keep[from] && keep[to])) continue;
    edges.push({ from: graph.jobs[from]!.name, to: graph.jobs[to]!.name, kind: graph.edges.kind[e] === 1 ? "declared" : "file" });
  }
  return { title, nodes, edges };
}
