import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPipeline, loadPipelineText } from "../../../src/engine/format/load.js";
import { diffPipelines, formatDiffText, type Change, type DiffResult } from "../../../src/engine/tools/diff.js";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "strand-diff-"));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const base = `[workflow]
name = "demo"
version = "1.0.0"

[config]
genome = "hg38.fa"
depth = 30

[defaults]
threads = 2

[[sample_groups]]
name = "cohort"
samples = ["S1", "S2"]

[[rules]]
name = "align"
input = ["{sample}.fq"]
output = ["{sample}.bam"]
shell = "bwa mem {config.genome} {input} > {output}"

[[rules]]
name = "call"
input = ["{sample}.bam"]
output = ["{sample}.vcf"]
shell = "bcftools call {input} > {output}"
`;

async function diff(textA: string, textB: string): Promise<DiffResult> {
  const a = await loadPipelineText(textA, { path: "x.oxoflow", dir });
  const b = await loadPipelineText(textB, { path: "x.oxoflow", dir });
  return diffPipelines(a, b, textA, textB, { a: "a.oxoflow", b: "b.oxoflow" });
}

function only(result: DiffResult): Change {
  expect(result.changes).toHaveLength(1);
  return result.changes[0]!;
}

describe("diffPipelines", () => {
  it("finds nothing between identical texts", async () => {
    const result = await diff(base, base);
    expect(result).toEqual({ identical: true, changes: [], unified_diff: "" });
  });

  it("reports a changed shell command with the rule's path and both commands", async () => {
    const result = await diff(base, base.replace("bcftools call", "bcftools call -mv"));
    expect(result.identical).toBe(false);
    expect(only(result)).toEqual({
      category: "rules",
      change: "changed",
      path: "rules.call.shell",
      description: 'rule "call": shell command changed',
      before: "bcftools call {input} > {output}",
      after: "bcftools call -mv {input} > {output}",
    });
  });

  it("compares effective threads (legacy, resources, defaults)", async () => {
    const alignShell = 'shell = "bwa mem {config.genome} {input} > {output}"';
    const resources = await diff(base, base.replace(alignShell, `${alignShell}\n[rules.resources]\nthreads = 8`));
    expect(resources.changes).toHaveLength(1);
    expect(resources.changes.find((change) => change.path === "rules.align.threads")).toMatchObject({
      category: "rules",
      change: "changed",
      description: 'rule "align": threads changed: 2 → 8',
      before: 2,
      after: 8,
    });

    // Moving threads from the legacy key into [rules.resources] keeps the effective value: no change.
    const legacy = base.replace('output = ["{sample}.vcf"]', 'output = ["{sample}.vcf"]\nthreads = 4');
    const moved = base.replace('shell = "bcftools call {input} > {output}"', 'shell = "bcftools call {input} > {output}"\n[rules.resources]\nthreads = 4');
    expect((await diff(legacy, moved)).identical).toBe(true);

    const defaults = await diff(base, base.replace("threads = 2", "threads = 3"));
    expect(defaults.changes.map((change) => change.path)).toEqual(["rules.align.threads", "rules.call.threads", "defaults.threads"]);
    expect(defaults.changes[2]).toMatchObject({ category: "defaults", description: "defaults threads changed: 2 → 3" });
  });

  it("reports config keys removed, changed and added, comparing values structurally", async () => {
    const result = await diff(base, base.replace('genome = "hg38.fa"\ndepth = 30', 'depth = 40\nregions = ["chr1", "chr2"]'));
    expect(result.changes.map((change) => [change.category, change.change, change.path, change.description])).toEqual([
      ["config", "removed", "config.genome", 'config variable removed: "genome"'],
      ["config", "changed", "config.depth", 'config variable changed: "depth"'],
      ["config", "added", "config.regions", 'config variable added: "regions"'],
    ]);
    expect(result.changes[1]).toMatchObject({ before: 30, after: 40 });
    expect(result.changes[2]!.after).toEqual(["chr1", "chr2"]);

    const tables = await diff(base.replace("depth = 30", "opts = { a = 1, b = 2 }"), base.replace("depth = 30", "opts = { b = 2, a = 1 }"));
    expect(tables.identical).toBe(true);
  });

  it("does not report engine-injected config keys, unless the file writes them", async () => {
    const moreSamples = base.replace('samples = ["S1", "S2"]', 'samples = ["S1", "S2", "S3"]');
    const result = await diff(base, moreSamples);
    expect(result.changes.map((change) => change.category)).toEqual(["sample_groups"]);
    expect(only(result)).toMatchObject({ change: "changed", path: "sample_groups.cohort", description: 'sample group changed: "cohort"' });

    const written = await diff(base.replace("depth = 30", 'depth = 30\nsamples_list = "S9"'), base.replace("depth = 30", 'depth = 30\nsamples_list = "S8"'));
    expect(written.changes.find((change) => change.path === "config.samples_list")).toMatchObject({ before: "S9", after: "S8" });
  });

  it("reports added and removed rules", async () => {
    const added = await diff(base, `${base}\n[[rules]]\nname = "annotate"\ninput = ["{sample}.vcf"]\noutput = ["{sample}.ann.vcf"]\nshell = "vep {input}"\n`);
    expect(only(added)).toMatchObject({ category: "rules", change: "added", path: "rules.annotate", description: 'rule added: "annotate"' });
    expect(only(added).after).toMatchObject({ name: "annotate", shell: "vep {input}" });

    const removed = await diff(base, base.slice(0, base.indexOf("[[rules]]\nname = \"call\"")));
    expect(only(removed)).toMatchObject({ category: "rules", change: "removed", path: "rules.call", description: 'rule removed: "call"' });
  });

  it("treats reordered rules as structurally identical while the text diff still shows the move", async () => {
    const alignAt = base.indexOf("[[rules]]\nname = \"align\"");
    const callAt = base.indexOf("[[rules]]\nname = \"call\"");
    const reordered = base.slice(0, alignAt) + base.slice(callAt) + "\n" + base.slice(alignAt, callAt).trimEnd() + "\n";
    const result = await diff(base, reordered);
    expect(result.identical).toBe(true);
    expect(result.changes).toEqual([]);
    expect(result.unified_diff).not.toBe("");
  });

  it("produces a unified diff with headers and the changed lines", async () => {
    const result = await diff(base, base.replace('version = "1.0.0"', 'version = "1.1.0"'));
    expect(only(result)).toMatchObject({ category: "workflow", path: "workflow.version", description: 'version changed: "1.0.0" → "1.1.0"' });
    expect(result.unified_diff).toContain("--- a.oxoflow");
    expect(result.unified_diff).toContain("+++ b.oxoflow");
    expect(result.unified_diff).toContain('-version = "1.0.0"');
    expect(result.unified_diff).toContain('+version = "1.1.0"');
  });

  it("reports the other rule aspects, params by key, and quotes non-bare names in paths", async () => {
    const textA = `[workflow]\nname = "w"\n\n[[rules]]\nname = "qc::fastp"\noutput = ["o.txt"]\nshell = "x"\nwhen = "config.run_qc"\nretries = 1\n[rules.params]\nlevel = 3\nmode = "fast"\n`;
    const textB = `[workflow]\nname = "w"\n\n[[rules]]\nname = "qc::fastp"\noutput = { report = "o.txt" }\nshell = "x"\nretries = 2\ndepends_on = ["prep"]\n[rules.params]\nlevel = 4\nextra = true\n[rules.environment]\nconda = "envs/qc.yaml"\n`;
    const result = await diff(textA, textB);
    expect(result.changes.map((change) => [change.change, change.path])).toEqual([
      ["changed", 'rules."qc::fastp".output'],
      ["added", 'rules."qc::fastp".environment'],
      ["removed", 'rules."qc::fastp".when'],
      ["changed", 'rules."qc::fastp".depends_on'],
      ["changed", 'rules."qc::fastp".retries'],
      ["changed", 'rules."qc::fastp".params.level'],
      ["removed", 'rules."qc::fastp".params.mode'],
      ["added", 'rules."qc::fastp".params.extra'],
    ]);
    expect(result.changes[1]!.after).toEqual({ conda: "envs/qc.yaml" });
    expect(result.changes[2]!.description).toBe('rule "qc::fastp": when condition removed');
  });

  it("compares pairs, references, includes and other sections by identity", async () => {
    const textA = `[workflow]\nname = "w"\n\n[[pairs]]\npair_id = "P1"\nexperiment = "T1"\ncontrol = "N1"\n\n[[pairs]]\npair_id = "P2"\nexperiment = "T2"\n\n[[values]]\nname = "caller"\nvalues = ["a"]\n`;
    const textB = `[workflow]\nname = "w"\n\n[[pairs]]\npair_id = "P2"\nexperiment = "T2"\n\n[[pairs]]\npair_id = "P1"\nexperiment = "T1"\ncontrol = "N9"\n\n[[references]]\nname = "fai"\noutput = "g.fa.fai"\nbuild = "samtools faidx g.fa"\n\n[[values]]\nname = "caller"\nvalues = ["a", "b"]\n`;
    const result = await diff(textA, textB);
    expect(result.changes.map((change) => [change.category, change.change, change.path])).toEqual([
      ["pairs", "changed", "pairs.P1"],
      ["references", "added", "references.fai"],
      ["other", "changed", "values"],
    ]);
  });
});

describe("formatDiffText", () => {
  it("lists each difference under a count line", async () => {
    const result = await diff(base, base.replace("bcftools call", "bcftools call -mv").replace("depth = 30", "depth = 31"));
    expect(formatDiffText(result, "a.oxoflow", "b.oxoflow")).toBe(
      ["Diff: 2 difference(s) between a.oxoflow and b.oxoflow:", '  • [rules] rule "call": shell command changed', '  • [config] config variable changed: "depth"'].join("\n"),
    );
  });

  it("says so when the workflows are identical", async () => {
    expect(formatDiffText(await diff(base, base), "a", "b")).toBe("✓ Workflows are identical");
  });
});

const corpus = process.env.STRAND_CORPUS;

describe.skipIf(!corpus)("diffPipelines: gallery corpus", () => {
  const gallery = corpus ? join(corpus, "gallery") : "";
  const files = corpus ? readdirSync(gallery).filter((name) => name.endsWith(".oxoflow")).sort() : [];

  it.each(files)("finds %s identical to itself and different from its neighbour", async (file) => {
    const path = join(gallery, file);
    const text = readFileSync(path, "utf8");
    const pipeline = await loadPipeline(path);
    expect(diffPipelines(pipeline, await loadPipeline(path), text, text)).toEqual({ identical: true, changes: [], unified_diff: "" });

    const other = join(gallery, files[(files.indexOf(file) + 1) % files.length]!);
    const result = diffPipelines(pipeline, await loadPipeline(other), text, readFileSync(other, "utf8"));
    expect(result.identical).toBe(false);
    expect(result.changes[0]!.path).toBe("workflow.name");
    expect(result.unified_diff).toContain(`--- ${path}`);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });
});
