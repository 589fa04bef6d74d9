/**
 * The layered layout of a graph with elkjs: the one place that speaks ELK's JSON, shared by the layout worker
 * and the in-page fallback (a browser without module workers).
 */
import type { ELK as ElkInstance } from "elkjs/lib/elk-api.js";

/** A graph to place: boxes of known size and the edges between them. */
export interface LayoutRequest {
  nodes: { id: string; width: number; height: number }[];
  edges: { source: string; target: string }[];
}

/** Each box's top-left corner, by node id. */
export type LayoutPositions = Record<string, { x: number; y: number }>;

// Top to bottom reads like a pipeline's order and fits the tall panel beside the editor; network simplex
// placement keeps long chains straight, and the spacing leaves room for edge labels the run page may add.
const LAYOUT_OPTIONS = {
  "elk.algorithm": "layered",
  "elk.direction": "DOWN",
  "elk.layered.spacing.nodeNodeBetweenLayers": "48",
  "elk.spacing.nodeNode": "24",
  "elk.layered.nodePlacement.strategy": "NETWORK_SIMPLEX",
  "elk.layered.considerModelOrder.strategy": "NODES_AND_EDGES",
  "elk.edgeRouting": "POLYLINE",
};

// Past this many boxes the crossing minimisation's default thoroughness (7 sweeps) costs seconds (1.4–2 s for
// 500 rules) for little gain; one sweep lays a 500-rule graph out in about 0.5 s.
const LARGE_GRAPH = 150;

/** Places the graph with the given ELK instance. */
export async function placeGraph(elk: ElkInstance, request: LayoutRequest): Promise<LayoutPositions> {
  const known = new Set(request.nodes.map((node) => node.id));
  const graph = await elk.layout({
    id: "root",
    layoutOptions: request.nodes.length > LARGE_GRAPH ? { ...LAYOUT_OPTIONS, "elk.layered.thoroughness": "1" } : LAYOUT_OPTIONS,
    children: request.nodes.map((node) => ({ id: node.id, width: node.width, height: node.height })),
    edges: request.edges
      .filter((edge) => known.has(edge.source) && known.has(edge.target) && edge.source !== edge.target)
      .map((edge, index) => ({ id: `e${index}`, sources: [edge.source], targets: [edge.target] })),
  });
  const positions: LayoutPositions = {};
  for (const child of graph.children ?? []) positions[child.id] = { x: child.x ?? 0, y: child.y ?? 0 };
  return positions;
}
