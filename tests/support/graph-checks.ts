/**
 * Structural readers for the graph formats, used by the engine and command-line tests: a mermaid flowchart
 * read line by line (every line a declared node, an edge between declared ids, or a comment), and an SVG
 * read by a strict XML parser (saxes), which throws on anything not well-formed.
 */
import { SaxesParser } from "saxes";
import { expect } from "vitest";

/** What a mermaid flowchart declares: node ids with their decoded labels, and edges. */
export interface MermaidGraph {
  direction: string;
  nodes: Map<string, string>;
  edges: { from: string; to: string; dashed: boolean }[];
}

/** Reads mermaid flowchart text; fails the test on a line that is neither a node, an edge nor a comment. */
export function readMermaid(text: string): MermaidGraph {
  const [header, ...lines] = text.trimEnd().split("\n");
  const direction = /^flowchart (LR|TB|TD|RL|BT)$/.exec(header ?? "")?.[1];
  expect(direction, `first line: ${header}`).toBeDefined();
  const nodes = new Map<string, string>();
  const edges: MermaidGraph["edges"] = [];
  for (const line of lines) {
    if (/^\s*%%/.test(line)) continue;
    const node = /^\s+([A-Za-z][A-Za-z0-9_]*)\["([^"[\]<>`]*)"\]$/.exec(line);
    if (node) {
      expect(nodes.has(node[1]!), `node ${node[1]} declared twice`).toBe(false);
      nodes.set(node[1]!, node[2]!.replace(/#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code))));
      continue;
    }
    const edge = /^\s+([A-Za-z][A-Za-z0-9_]*) (-->|-\.->) ([A-Za-z][A-Za-z0-9_]*)$/.exec(line);
    expect(edge, `not a node, edge or comment: ${line}`).not.toBeNull();
    edges.push({ from: edge![1]!, to: edge![3]!, dashed: edge![2] === "-.->" });
  }
  for (const edge of edges) {
    expect(nodes.has(edge.from), `edge from undeclared ${edge.from}`).toBe(true);
    expect(nodes.has(edge.to), `edge to undeclared ${edge.to}`).toBe(true);
  }
  for (const id of nodes.keys()) expect(["end", "graph", "subgraph", "flowchart", "style", "class", "click"]).not.toContain(id.toLowerCase());
  return { direction: direction!, nodes, edges };
}

/** What an SVG holds: its root's name and namespace, the `<g class="node">` elements' names, and edges. */
export interface SvgGraph {
  root: string;
  namespace: string | undefined;
  nodeNames: string[];
  edgeCount: number;
  /** Every src/href-like attribute value, to check the file refers to nothing outside itself. */
  references: string[];
}

/** Parses SVG text with a strict XML parser (throws when it is not well-formed XML). */
export function readSvg(text: string): SvgGraph {
  const parser = new SaxesParser({ xmlns: true });
  const result: SvgGraph = { root: "", namespace: undefined, nodeNames: [], edgeCount: 0, references: [] };
  let error: Error | undefined;
  parser.on("error", (problem) => {
    error ??= problem;
  });
  parser.on("opentag", (tag) => {
    if (result.root === "") {
      result.root = tag.local;
      result.namespace = tag.uri;
    }
    const attribute = (name: string) => tag.attributes[name]?.value;
    const classes = (attribute("class") ?? "").split(/\s+/);
    if (tag.local === "g" && classes.includes("node")) result.nodeNames.push(attribute("data-name") ?? "");
    if (tag.local === "path" && classes.includes("edge")) result.edgeCount++;
    for (const attr of Object.values(tag.attributes)) if (/^(href|src)$/.test(attr.local)) result.references.push(attr.value);
  });
  parser.write(text).close();
  if (error) throw error;
  return result;
}
