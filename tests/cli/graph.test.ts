/**
 * `strand graph`: ascii (default), Graphviz dot and JSON; templates by default, jobs with `--expanded`;
 * `-o FILE`, `-t` selection; an unknown format is a usage error.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAIN, COHORT, CYCLE } from "../support/cli-pipelines.js";
import { parseData, parseEnvelope, parseJson, runStrand, tempFolder, type TempFolder } from "../support/strand-cli.js";

interface GraphJson {
  nodes: { id: string; label: string; rule: string; environment: string; threads: number; level: number }[];
  edges: { from: string; to: string; kind: string }[];
  levels: string[][];
  critical_path: string[];
  metrics: { nodes: number; edges: number; max_depth: number; max_width: number };
}

let folder: TempFolder;
beforeAll(() => {
  folder = tempFolder({ "main.oxoflow": COHORT, "chain.oxoflow": CHAIN, "cycle.oxoflow": CYCLE });
});
afterAll(() => folder.remove());

const graph = (...args: string[]) => runStrand(["graph", ...args], { cwd: folder.dir });

describe.concurrent("strand graph", () => {
  it("ascii is the default: levels, dependencies and the critical path", async () => {
    const result = await graph("chain.oxoflow");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("chain: 3 nodes, 2 dependencies, 3 levels");
    expect(result.stdout).toMatch(/^Level 0\n {2}generate$/m);
    expect(result.stdout).toMatch(/^Level 1\n {2}transform {2}← generate$/m);
    expect(result.stdout).toMatch(/^Level 2\n {2}summarise {2}← transform$/m);
    expect(result.stdout).toContain("Critical path (3): generate → transform → summarise");
    expect(result.stdout).not.toContain("\u001b[");
  });

  it("-f ascii is the same as the default", async () => {
    const [plain, ascii] = await Promise.all([graph("chain.oxoflow"), graph("chain.oxoflow", "-f", "ascii")]);
    expect(ascii.stdout).toBe(plain.stdout);
  });

  it("-f dot is a Graphviz digraph of the rules", async () => {
    const result = await graph("main.oxoflow", "-f", "dot");
    expect(result.exitCode).toBe(0);
    const text = result.stdout.trim();
    expect(text.startsWith('digraph "cohort-demo" {')).toBe(true);
    expect(text.endsWith("}")).toBe(true);
    for (const rule of ["align", "merge", "report"]) expect(text).toContain(`  "${rule}";`);
    expect(text).toContain('"align" -> "merge";');
    expect(text).toContain('"merge" -> "report";');
    expect(text).not.toContain("align_cohort_S1");
  });

  it("--format json describes nodes, edges, levels and the critical path", async () => {
    const result = await graph("main.oxoflow", "--format", "json");
    expect(result.exitCode).toBe(0);
    const body = parseJson<GraphJson>(result);
    expect(body.nodes.map((node) => node.id)).toEqual(["align", "merge", "report"]);
    expect(body.nodes[0]).toMatchObject({ id: "align", label: "align", rule: "align", environment: "system", threads: 1, level: 0 });
    expect(body.edges).toEqual([
      { from: "align", to: "merge", kind: "file" },
      { from: "merge", to: "report", kind: "file" },
    ]);
    expect(body.levels).toEqual([["align"], ["merge"], ["report"]]);
    expect(body.critical_path).toEqual(["align", "merge", "report"]);
    expect(body.metrics).toEqual({ nodes: 3, edges: 2, max_depth: 2, max_width: 1 });
  });

  it("--json alone means the graph document inside the JSON envelope", async () => {
    const [json, explicit] = await Promise.all([graph("main.oxoflow", "--json"), graph("main.oxoflow", "-f", "json")]);
    expect(parseEnvelope(json)).toMatchObject({ ok: true, command: "graph", findings: [] });
    expect(parseData(json)).toEqual(parseJson(explicit));
  });

  it("--json with another format puts that format's text in the envelope", async () => {
    const result = await graph("main.oxoflow", "-f", "dot", "--json");
    const data = parseData<{ format: string; text: string }>(result);
    expect(data.format).toBe("dot");
    expect(data.text).toContain('"align" -> "merge";');
  });

  it("--expanded shows jobs: one per sample, all feeding the merge", async () => {
    const body = parseJson<GraphJson>(await graph("main.oxoflow", "--expanded", "-f", "json"));
    expect(body.nodes.map((node) => node.id)).toEqual(["align_cohort_S1", "align_cohort_S2", "align_cohort_S3", "merge", "report"]);
    expect(body.nodes.find((node) => node.id === "align_cohort_S2")?.rule).toBe("align");
    expect(body.edges.filter((edge) => edge.to === "merge").map((edge) => edge.from).sort()).toEqual(["align_cohort_S1", "align_cohort_S2", "align_cohort_S3"]);
    const dot = await graph("main.oxoflow", "--expanded", "-f", "dot");
    expect(dot.stdout).toContain('"align_cohort_S3" -> "merge";');
  });

  it("-t keeps the target and what it needs", async () => {
    const body = parseJson<GraphJson>(await graph("chain.oxoflow", "-f", "json", "-t", "transform"));
    expect(body.nodes.map((node) => node.id)).toEqual(["generate", "transform"]);
    expect(body.edges).toEqual([{ from: "generate", to: "transform", kind: "file" }]);
  });

  it("an unknown format is a usage error (exit 2) listing the formats", async () => {
    const result = await graph("main.oxoflow", "-f", "png");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("unknown graph format 'png'");
    expect(result.stderr).toContain("ascii, dot, json, mermaid, svg");
    expect(result.stdout).toBe("");
  });

  it("a cycle fails with exit 1", async () => {
    const result = await graph("cycle.oxoflow");
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("cycle detected in workflow DAG");
  });
});

describe("strand graph -o", () => {
  it("writes the graph to a file and nothing to stdout", async () => {
    const result = await graph("main.oxoflow", "-f", "dot", "-o", "graph.dot");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("graph.dot");
    const text = readFileSync(folder.path("graph.dot"), "utf8");
    expect(text.startsWith('digraph "cohort-demo" {')).toBe(true);
  });
});
