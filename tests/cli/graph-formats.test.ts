/**
 * `strand graph -f mermaid` and `-f svg`, for the rule graph and the job graph (`--expanded`), through the
 * real binary: the mermaid text declares every node once with edges between declared ids, the SVG is
 * well-formed XML with one node element per node; `-o` writes the file and `--json` wraps the text.
 */
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { readMermaid, readSvg } from "../support/graph-checks.js";
import { COHORT } from "../support/cli-pipelines.js";
import { parseData, runStrand, tempFolder, type TempFolder } from "../support/strand-cli.js";

const folders: TempFolder[] = [];
afterAll(() => folders.forEach((folder) => folder.remove()));

function workspace(): TempFolder {
  const folder = tempFolder({ "main.oxoflow": COHORT });
  folders.push(folder);
  return folder;
}

/** Nodes and edges of the same graph as JSON, the reference the other formats are compared with. */
async function reference(dir: string, expanded: boolean): Promise<{ nodes: string[]; edges: string[] }> {
  const data = parseData<{ nodes: { id: string }[]; edges: { from: string; to: string }[] }>(await runStrand(["graph", "-f", "json", "--json", ...(expanded ? ["--expanded"] : [])], { cwd: dir }));
  return { nodes: data.nodes.map((node) => node.id).sort(), edges: data.edges.map((edge) => `${edge.from}->${edge.to}`).sort() };
}

describe("strand graph -f mermaid", () => {
  for (const expanded of [false, true]) {
    it(`prints a flowchart of the ${expanded ? "job" : "rule"} graph`, async () => {
      const folder = workspace();
      const result = await runStrand(["graph", "-f", "mermaid", ...(expanded ? ["--expanded"] : [])], { cwd: folder.dir });
      expect(result.exitCode).toBe(0);
      const read = readMermaid(result.stdout);
      const expected = await reference(folder.dir, expanded);
      expect([...read.nodes.values()].sort()).toEqual(expected.nodes);
      expect(read.edges.map((edge) => `${read.nodes.get(edge.from)}->${read.nodes.get(edge.to)}`).sort()).toEqual(expected.edges);
      expect(expected.nodes.length).toBe(expanded ? 5 : 3);
    });
  }
});

describe("strand graph -f svg", () => {
  for (const expanded of [false, true]) {
    it(`writes a well-formed SVG of the ${expanded ? "job" : "rule"} graph with -o`, async () => {
      const folder = workspace();
      const result = await runStrand(["graph", "-f", "svg", "-o", "graph.svg", ...(expanded ? ["--expanded"] : [])], { cwd: folder.dir });
      expect(result.exitCode).toBe(0);
      const read = readSvg(readFileSync(folder.path("graph.svg"), "utf8"));
      const expected = await reference(folder.dir, expanded);
      expect(read.root).toBe("svg");
      expect(read.nodeNames.sort()).toEqual(expected.nodes);
      expect(read.edgeCount).toBe(expected.edges.length);
      expect(read.references).toEqual([]);
    });
  }

  it("wraps the SVG text in the JSON envelope with --json", async () => {
    const folder = workspace();
    const data = parseData<{ format: string; text: string }>(await runStrand(["graph", "-f", "svg", "--json"], { cwd: folder.dir }));
    expect(data.format).toBe("svg");
    expect(readSvg(data.text).nodeNames).toHaveLength(3);
  });

  it("names the formats when one is unknown", async () => {
    const result = await runStrand(["graph", "-f", "png"], { cwd: workspace().dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/use one of ascii, dot, json, mermaid, svg/);
  });
});
