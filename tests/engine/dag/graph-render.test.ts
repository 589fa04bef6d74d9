/**
 * The mermaid and SVG renderers on real rule and job graphs (loaded and expanded from pipeline text), and
 * on names built to break them: mermaid keywords, quotes, brackets, markup and ids that clash once made safe.
 */
import { describe, expect, it } from "vitest";
import { buildGraph } from "../../../src/engine/dag/graph.js";
import { graphDrawing, type GraphDrawing } from "../../../src/engine/dag/graph-drawing.js";
import { mermaidIds, renderMermaid } from "../../../src/engine/dag/render-mermaid.js";
import { renderSvg } from "../../../src/engine/dag/render-svg.js";
import { expandPipeline } from "../../../src/engine/expand/expand.js";
import { loadPipelineText } from "../../../src/engine/format/load.js";
import { readMermaid, readSvg } from "../../support/graph-checks.js";

const PIPELINE = `[workflow]
name = "graph <demo> & \\"friends\\""

[[sample_groups]]
name = "g"
samples = ["S-1", "S_1", "s.2"]

[[rules]]
name = "align"
input = ["raw/{sample}.fq"]
output = ["aligned/{sample}.bam"]
shell = "cat {input} > {output}"

[[rules]]
name = "merge"
expand_inputs = [{ pattern = "aligned/{sample}.bam", variables = { sample = "config.samples_list" } }]
output = ["merged.bam"]
shell = "cat {input} > {output}"

[[rules]]
name = "end"
input = ["merged.bam"]
output = ["final.txt"]
shell = "wc -c {input} > {output}"

[[rules]]
name = "audit"
depends_on = ["merge"]
output = ["audit.txt"]
shell = "date > {output}"
`;

async function drawings(): Promise<{ rules: GraphDrawing; jobs: GraphDrawing }> {
  const pipeline = await loadPipelineText(PIPELINE, { path: "graph.oxoflow", dir: process.cwd() });
  return {
    rules: graphDrawing(buildGraph(expandPipeline(pipeline, "template")), pipeline.workflow.name),
    jobs: graphDrawing(buildGraph(expandPipeline(pipeline, "plan")), pipeline.workflow.name),
  };
}

/** Edges by node name, from a drawing. */
const namedEdges = (drawing: GraphDrawing) => drawing.edges.map((edge) => `${edge.from}->${edge.to}${edge.kind === "declared" ? " (declared)" : ""}`).sort();

describe("mermaid", () => {
  it("declares every node of the rule and job graphs once, with edges only between declared ids", async () => {
    for (const drawing of Object.values(await drawings())) {
      const read = readMermaid(renderMermaid(drawing));
      expect(read.direction).toBe("LR");
      expect([...read.nodes.values()].sort()).toEqual(drawing.nodes.map((node) => node.name).sort());
      const nameOf = (id: string) => read.nodes.get(id)!;
      expect(read.edges.map((edge) => `${nameOf(edge.from)}->${nameOf(edge.to)}${edge.dashed ? " (declared)" : ""}`).sort()).toEqual(namedEdges(drawing));
    }
  });

  it("keeps the rule named end and names that clash once made safe apart", async () => {
    const { rules, jobs } = await drawings();
    expect(readMermaid(renderMermaid(rules)).nodes.get("n_end")).toBe("end");
    const read = readMermaid(renderMermaid(jobs));
    const ids = [...read.nodes.keys()];
    expect(new Set(ids).size).toBe(jobs.nodes.length);
    expect([...read.nodes.values()]).toEqual(expect.arrayContaining(["align_g_S-1", "align_g_S_1", "align_g_s.2"]));
  });

  it("escapes quotes, brackets, markup and # in labels", () => {
    const names = ['a "quoted" [name]', "<b>bold</b> & co", "x#1 `tick` {brace} |pipe|", "o", "x", "end", "a-b", "a_b"];
    const text = renderMermaid({ title: "t\nx", nodes: names.map((name) => ({ name, rule: "r", level: 0 })), edges: [{ from: names[0]!, to: names[1]!, kind: "file" }, { from: "o", to: "x", kind: "declared" }] });
    const read = readMermaid(text);
    expect([...read.nodes.values()]).toEqual(names);
    expect(read.edges).toHaveLength(2);
    expect(mermaidIds(["a-b", "a_b", "a.b"])).toEqual(new Map([["a-b", "n_a_b"], ["a_b", "n_a_b_2"], ["a.b", "n_a_b_3"]]));
  });
});

describe("svg", () => {
  it("is well-formed XML with one node element per node of the rule and job graphs, and nothing outside itself", async () => {
    for (const drawing of Object.values(await drawings())) {
      const svg = renderSvg(drawing);
      const read = readSvg(svg);
      expect(read.root).toBe("svg");
      expect(read.namespace).toBe("http://www.w3.org/2000/svg");
      expect(read.nodeNames.sort()).toEqual(drawing.nodes.map((node) => node.name).sort());
      expect(read.edgeCount).toBe(drawing.edges.length);
      expect(read.references).toEqual([]);
      expect(svg).not.toMatch(/<script|<image|<foreignObject/i);
    }
  });

  it("stays well-formed with markup, quotes and control characters in names", () => {
    const names = ['<script>alert("x")</script>', "a & b", "it's", "bell\u0007", "lone \uD800 half", "é😀"];
    const read = readSvg(renderSvg({ title: "<t>", nodes: names.map((name, level) => ({ name, rule: name, level })), edges: [{ from: names[0]!, to: names[1]!, kind: "declared" }] }));
    expect(read.nodeNames).toEqual(['<script>alert("x")</script>', "a & b", "it's", "bell\uFFFD", "lone \uFFFD half", "é😀"]);
    expect(read.edgeCount).toBe(1);
  });

  it("lays nodes out by level: a level's nodes share a column left of the next level's", async () => {
    const { jobs } = await drawings();
    const svg = renderSvg(jobs);
    const x = new Map([...svg.matchAll(/<g class="node" data-name="([^"]+)"[^>]*data-level="(\d+)"><title>[^<]*<\/title><rect x="([\d.]+)"/g)].map((match) => [match[1]!, { level: Number(match[2]), x: Number(match[3]) }]));
    expect(x.size).toBe(jobs.nodes.length);
    const columns = new Map<number, Set<number>>();
    for (const { level, x: left } of x.values()) columns.set(level, (columns.get(level) ?? new Set()).add(left));
    for (const lefts of columns.values()) expect(lefts.size).toBe(1);
    const order = [...columns.keys()].sort((a, b) => a - b).map((level) => [...columns.get(level)!][0]!);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});
