import { afterAll, describe, expect, it } from "vitest";
import { buildGraph, closure, criticalPath, type JobGraph } from "../../../src/engine/dag/graph.js";
import { looksLikeDirectory } from "../../../src/engine/dag/edges.js";
import { selectJobs } from "../../../src/engine/dag/select.js";
import { expandPipeline, type ExpansionMode } from "../../../src/engine/expand/expand.js";
import { loadPipeline, loadPipelineText } from "../../../src/engine/format/load.js";
import { engineError, removeTempDirs, tempDir, writeFile } from "../../support/temp-workspace.js";

afterAll(removeTempDirs);

type RuleSpec = { name: string; input?: string[]; output?: string[]; depends_on?: string[]; extra?: string };

function ruleText(rule: RuleSpec): string {
  const list = (items: string[]) => `[${items.map((item) => JSON.stringify(item)).join(", ")}]`;
  return [
    "[[rules]]",
    `name = "${rule.name}"`,
    rule.input ? `input = ${list(rule.input)}` : "",
    rule.output ? `output = ${list(rule.output)}` : "",
    rule.depends_on ? `depends_on = ${list(rule.depends_on)}` : "",
    'shell = "true"',
    rule.extra ?? "",
    "",
  ].join("\n");
}

async function graphOf(rules: RuleSpec[], mode: ExpansionMode = "template", preamble = ""): Promise<JobGraph> {
  const text = `[workflow]\nname = "dag"\n\n${preamble}\n${rules.map(ruleText).join("\n")}`;
  const pipeline = await loadPipelineText(text, { path: "main.oxoflow", dir: tempDir() });
  return buildGraph(expandPipeline(pipeline, mode));
}

/** Edges as "producer → consumer" (declared edges marked with "(declared)"), sorted. */
function edges(graph: JobGraph): string[] {
  const out: string[] = [];
  for (let e = 0; e < graph.edges.count; e++) {
    const label = `${graph.jobs[graph.edges.from[e]!]!.name} → ${graph.jobs[graph.edges.to[e]!]!.name}`;
    out.push(graph.edges.kind[e] === 1 ? `${label} (declared)` : label);
  }
  return out.sort();
}

const order = (graph: JobGraph): string[] => Array.from(graph.order, (i) => graph.jobs[i]!.name);
const levels = (graph: JobGraph): Record<string, number> => Object.fromEntries(graph.jobs.map((job, i) => [job.name, graph.level[i]!]));
const kept = (graph: JobGraph, mask: Uint8Array | undefined): string[] => (mask ? graph.jobs.filter((_, i) => mask[i]).map((job) => job.name) : ["(everything)"]);

describe("edges", () => {
  it("connect exact output paths to inputs; several producers of one path are all edges", async () => {
    const graph = await graphOf([
      { name: "a", output: ["x.txt"] },
      { name: "b", output: ["x.txt", "y.txt"] },
      { name: "c", input: ["x.txt", "y.txt", "raw.fq"], output: ["c.txt"] },
    ]);
    expect(edges(graph)).toEqual(["a → c", "b → c"]);
  });

  it("match glob inputs against outputs within one path segment", async () => {
    const graph = await graphOf([
      { name: "s1", output: ["calls/s1.vcf"] },
      { name: "s2", output: ["calls/s2.vcf"] },
      { name: "deep", output: ["calls/sub/s3.vcf"] },
      { name: "other", output: ["calls/s1.tbi"] },
      { name: "merge", input: ["calls/*.vcf"], output: ["all.vcf"] },
      { name: "pick", input: ["calls/s[12].v?f"], output: ["p.vcf"] },
    ]);
    expect(edges(graph)).toEqual(["s1 → merge", "s1 → pick", "s2 → merge", "s2 → pick"]);
  });

  it("match concrete inputs against template outputs of another rule", async () => {
    const graph = await graphOf([
      { name: "align", input: ["{sample}.fq"], output: ["bam/{sample}.sorted.bam"] },
      { name: "sites", input: ["bam/S1.sorted.bam"], output: ["s.txt"] },
      { name: "miss", input: ["bam/S1.bam"], output: ["m.txt"] },
    ]);
    expect(edges(graph)).toEqual(["align → sites"]);
  });

  it("treat an input with a trailing slash or without a known extension as a folder", async () => {
    const graph = await graphOf([
      { name: "star", output: ["ref/star/SA", "ref/star/Genome"] },
      { name: "bwa", output: ["ref/bwa/genome.fa.bwt"] },
      { name: "use_star", input: ["ref/star"], output: ["a.bam"] },
      { name: "use_bwa", input: ["ref/bwa/"], output: ["b.bam"] },
      { name: "use_file", input: ["ref/bwa.txt"], output: ["c.bam"] },
    ]);
    expect(edges(graph)).toEqual(["bwa → use_bwa", "star → use_star"]);
    expect(looksLikeDirectory("results/star")).toBe(true);
    expect(looksLikeDirectory("results/genome.index")).toBe(true);
    expect(looksLikeDirectory("results/READS.FASTQ")).toBe(false);
    expect(looksLikeDirectory("results/..")).toBe(false);
  });

  it("add depends_on edges, ignore unknown names, and drop self-edges", async () => {
    const graph = await graphOf([
      { name: "setup" },
      { name: "work", output: ["w.txt"], input: ["w.txt"], depends_on: ["setup", "ghost", "work"] },
    ]);
    expect(edges(graph)).toEqual(["setup → work (declared)"]);
  });

  it("collapse duplicate edges between the same two jobs", async () => {
    const graph = await graphOf([
      { name: "a", output: ["a1.txt", "a2.txt"] },
      { name: "b", input: ["a1.txt", "a2.txt", "a*.txt"], output: ["b.txt"], depends_on: ["a", "a"] },
    ]);
    expect(edges(graph)).toEqual(["a → b"]);
    expect(graph.edges.count).toBe(1);
  });

  it("connect expanded instances and depends_on rewritten to instances", async () => {
    const groups = `[[sample_groups]]\nname = "g"\nsamples = ["S1", "S2"]\n`;
    const graph = await graphOf(
      [
        { name: "align", input: ["{sample}.fq"], output: ["{sample}.bam"] },
        { name: "call", input: ["{sample}.bam"], output: ["{sample}.vcf"] },
        { name: "report", depends_on: ["call"], output: ["r.html"] },
      ],
      "plan",
      groups,
    );
    expect(edges(graph)).toEqual(["align_g_S1 → call_g_S1", "align_g_S2 → call_g_S2", "call_g_S1 → report (declared)", "call_g_S2 → report (declared)"]);
  });
});

describe("cycles", () => {
  it("are DAG_ERROR naming the loop with the closing job repeated", async () => {
    const error = await engineError(
      graphOf([
        { name: "a", input: ["b.txt"], output: ["a.txt"] },
        { name: "b", input: ["a.txt"], output: ["b.txt"] },
      ]),
    );
    expect(error.code).toBe("DAG_ERROR");
    expect(error.message).toBe("cycle detected in workflow DAG: a → b → a");
    expect(error.finding.rule).toBe("a");
  });

  it("name only the jobs on the loop, not those leading into it", async () => {
    const error = await engineError(
      graphOf([
        { name: "start", output: ["s.txt"] },
        { name: "x", input: ["s.txt", "z.txt"], output: ["x.txt"] },
        { name: "y", input: ["x.txt"], output: ["y.txt"] },
        { name: "z", input: ["y.txt"], output: ["z.txt"] },
      ]),
    );
    expect(error.message).toBe("cycle detected in workflow DAG: x → y → z → x");
  });
});

describe("levels and order", () => {
  const diamond: RuleSpec[] = [
    { name: "merge", input: ["b.txt", "c.txt"], output: ["m.txt"] },
    { name: "c", input: ["a.txt"], output: ["c.txt"] },
    { name: "b", input: ["a.txt"], output: ["b.txt"] },
    { name: "a", output: ["a.txt"] },
    { name: "lonely", output: ["l.txt"] },
    { name: "late", input: ["m.txt", "b.txt"], output: ["z.txt"] },
  ];

  it("level is 0 for roots, else one more than the highest parent", async () => {
    const graph = await graphOf(diamond);
    expect(levels(graph)).toEqual({ merge: 2, c: 1, b: 1, a: 0, lonely: 0, late: 3 });
    expect(graph.levelCount).toBe(4);
  });

  it("display order is by level, then rule order in the file (no name sort: a million jobs list in one pass)", async () => {
    expect(order(await graphOf(diamond))).toEqual(["a", "lonely", "c", "b", "merge", "late"]);
  });

  it("the critical path is the longest chain, ties broken alphabetically", async () => {
    expect(criticalPath(await graphOf(diamond))).toEqual(["a", "b", "merge", "late"]);
    expect(criticalPath(await graphOf([{ name: "y" }, { name: "x" }]))).toEqual(["x"]);
    expect(criticalPath(await graphOf([]))).toEqual([]);
  });

  it("closure collects everything upstream or downstream", async () => {
    const graph = await graphOf(diamond);
    const b = graph.jobs.findIndex((job) => job.name === "b");
    expect(kept(graph, closure(graph, [b], "upstream"))).toEqual(["b", "a"]);
    expect(kept(graph, closure(graph, [b], "downstream"))).toEqual(["merge", "b", "late"]);
  });
});

describe("target selection", () => {
  const groups = `[[sample_groups]]\nname = "cohort"\nsamples = ["S1", "S2"]\n`;
  const rules: RuleSpec[] = [
    { name: "trim", input: ["{sample}.fq"], output: ["{sample}.trim.fq"] },
    { name: "align", input: ["{sample}.trim.fq"], output: ["{sample}.bam"] },
    { name: "alignment_qc", input: ["{sample}.bam"], output: ["{sample}.qc"] },
    { name: "report", output: ["r.html"] },
  ];

  it("-t with a prefix takes every job whose name starts with it, plus everything upstream", async () => {
    const graph = await graphOf(rules, "plan", groups);
    expect(kept(graph, selectJobs(graph, { targets: ["align_cohort_S1"] }, []))).toEqual(["trim_cohort_S1", "align_cohort_S1"]);
    expect(kept(graph, selectJobs(graph, { targets: ["align"] }, []))).toEqual([
      "trim_cohort_S1",
      "trim_cohort_S2",
      "align_cohort_S1",
      "align_cohort_S2",
      "alignment_qc_cohort_S1",
      "alignment_qc_cohort_S2",
    ]);
    expect(kept(graph, selectJobs(graph, { targets: ["alignment"] }, []))).toHaveLength(6);
    expect(kept(graph, selectJobs(graph, { targets: ["report", "trim_cohort_S2"] }, []))).toEqual(["trim_cohort_S2", "report"]);
    expect(selectJobs(graph, {}, [])).toBeUndefined();
  });

  it("a target matching nothing is TARGET_ERROR listing the rules", async () => {
    const graph = await graphOf(rules, "plan", groups);
    const error = await engineError(() => selectJobs(graph, { targets: ["call"] }, []));
    expect(error.code).toBe("TARGET_ERROR");
    expect(error.message).toBe("target 'call' matches no rule");
    expect(error.finding.suggestion).toBe("rules: trim, align, alignment_qc, report");
  });

  it("--module keeps the module's jobs and the producers of its declared inputs", async () => {
    const dir = tempDir();
    writeFile(dir, "calling.oxoflow", `[workflow]\nname = "calling"\n\n${ruleText({ name: "call", input: ["aligned.bam"], output: ["calls.vcf"] })}\n${ruleText({ name: "filter", input: ["calls.vcf"], output: ["filtered.vcf"] })}`);
    const main = `[workflow]\nname = "main"\n\n[[include]]\npath = "calling.oxoflow"\nnamespace = "calling"\ninputs = ["aligned.bam"]\n\n${ruleText({ name: "trim", output: ["trimmed.fq"] })}\n${ruleText({ name: "align", input: ["trimmed.fq"], output: ["aligned.bam"] })}\n${ruleText({ name: "report", input: ["filtered.vcf"], output: ["r.html"] })}`;
    const pipeline = await loadPipeline(writeFile(dir, "main.oxoflow", main));
    const graph = buildGraph(expandPipeline(pipeline, "plan"));
    expect(kept(graph, selectJobs(graph, { module: "calling" }, pipeline.modules))).toEqual(["align", "calling::call", "calling::filter"]);
    // Unions with -t.
    expect(kept(graph, selectJobs(graph, { module: "calling", targets: ["report"] }, pipeline.modules))).toHaveLength(5);
    const error = await engineError(() => selectJobs(graph, { module: "qc" }, pipeline.modules));
    expect(error.code).toBe("TARGET_ERROR");
    expect(error.finding.suggestion).toBe("modules: calling");
  });
});

describe("scale", () => {
  it("a chain of 10,000 rules builds without recursion limits, quickly", async () => {
    const count = 10_000;
    const parts = ['[workflow]\nname = "chain"\n'];
    parts.push('[[rules]]\nname = "step_0"\noutput = ["step_0.txt"]\nshell = "touch {output}"\n');
    for (let i = 1; i < count; i++) parts.push(`[[rules]]\nname = "step_${i}"\ninput = ["step_${i - 1}.txt"]\noutput = ["step_${i}.txt"]\nshell = "cp {input} {output}"\n`);
    const pipeline = await loadPipelineText(parts.join("\n"), { dir: tempDir() });

    const started = performance.now();
    const graph = buildGraph(expandPipeline(pipeline, "plan"));
    const path = criticalPath(graph);
    const upstream = closure(graph, [count - 1], "upstream");
    const elapsed = performance.now() - started;

    expect(graph.edges.count).toBe(count - 1);
    expect(graph.levelCount).toBe(count);
    expect(path).toHaveLength(count);
    expect(path[count - 1]).toBe(`step_${count - 1}`);
    expect(upstream.reduce((sum, value) => sum + value, 0)).toBe(count);
    expect(elapsed).toBeLessThan(2_000);

    // A cycle through the whole chain is found without recursion too.
    const cyclic = parts.slice();
    cyclic[1] = '[[rules]]\nname = "step_0"\ninput = ["step_9999.txt"]\noutput = ["step_0.txt"]\nshell = "touch {output}"\n';
    const looped = await loadPipelineText(cyclic.join("\n"), { dir: tempDir() });
    const error = await engineError(() => buildGraph(expandPipeline(looped, "plan")));
    expect(error.message.split(" → ")).toHaveLength(count + 1);
  });
});
