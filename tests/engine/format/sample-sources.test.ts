import { afterAll, describe, expect, it } from "vitest";
import { loadPipeline } from "../../../src/engine/format/load.js";
import type { Pipeline } from "../../../src/engine/format/model.js";
import { engineError, lineOf, removeTempDirs, tempDir, writeFile } from "../../support/temp-workspace.js";

afterAll(removeTempDirs);

/** Writes the data files and a workflow whose [workflow] table ends with `workflowKeys`, then loads it. */
async function loadWith(workflowKeys: string, files: Record<string, string> = {}, options: Parameters<typeof loadPipeline>[1] = {}, rest = ""): Promise<Pipeline> {
  const dir = tempDir();
  for (const [path, content] of Object.entries(files)) writeFile(dir, path, content);
  return loadPipeline(writeFile(dir, "main.oxoflow", `[workflow]\nname = "demo"\n${workflowKeys}\n${rest}`), options);
}

const groupsOf = (pipeline: Pipeline) => pipeline.sample_groups.map((group) => [group.name, group.samples]);

describe("sample_groups_file", () => {
  it("reads TSV, with comments, trimmed cells and a quoted comma list", async () => {
    const tsv = '# groups of the study\nname\tsamples\tnote\nbulkRNA\t"S1,S2"\tignored\n tumor \t T1 , T2 \n';
    const pipeline = await loadWith('sample_groups_file = "samples.tsv"', { "samples.tsv": tsv });
    expect(groupsOf(pipeline)).toEqual([
      ["bulkRNA", ["S1", "S2"]],
      ["tumor", ["T1", "T2"]],
    ]);
    expect(pipeline.config.samples_bulkRNA).toBe("S1,S2");
  });

  it("reads CSV, where the sample list must be a quoted cell", async () => {
    const csv = 'samples,name\n"A1, A2, A3",cohortA\nB1,cohortB\n';
    const pipeline = await loadWith('sample_groups_file = "meta/groups.csv"', { "meta/groups.csv": csv });
    expect(groupsOf(pipeline)).toEqual([
      ["cohortA", ["A1", "A2", "A3"]],
      ["cohortB", ["B1"]],
    ]);
  });

  it("reads JSON, with metadata", async () => {
    const json = JSON.stringify([{ name: "g1", samples: ["S1", "S2"], metadata: { tissue: "liver", batch: 2 } }]);
    const pipeline = await loadWith('sample_groups_file = "groups.json"', { "groups.json": json });
    expect(pipeline.sample_groups).toEqual([{ name: "g1", samples: ["S1", "S2"], metadata: { tissue: "liver", batch: "2" } }]);
  });

  it("appends file groups after inline [[sample_groups]]", async () => {
    const pipeline = await loadWith('sample_groups_file = "g.tsv"', { "g.tsv": "name\tsamples\nfile\tF1\n" }, {}, '[[sample_groups]]\nname = "inline"\nsamples = ["I1"]\n');
    expect(groupsOf(pipeline)).toEqual([
      ["inline", ["I1"]],
      ["file", ["F1"]],
    ]);
    expect(pipeline.config.samples_list).toBe("F1,I1");
  });

  it("the file name may use {config.*}", async () => {
    const pipeline = await loadWith('sample_groups_file = "{config.sheet}"', { "sheets/a.tsv": "name\tsamples\ng\tS1\n" }, {}, '[config]\nsheet = "sheets/a.tsv"\n');
    expect(groupsOf(pipeline)).toEqual([["g", ["S1"]]]);
  });

  it("a header without name and samples columns is SOURCE_ERROR at the header line of the file", async () => {
    const error = await engineError(loadWith('sample_groups_file = "samples.tsv"', { "samples.tsv": "# comment\ngroup\tsample_ids\nbulk\tS1\n" }));
    expect(error.code).toBe("SOURCE_ERROR");
    expect(error.message).toContain("the header row must name the columns 'name' and 'samples' (found: group, sample_ids)");
    expect(error.finding).toMatchObject({ file: "samples.tsv", line: 2, column: 1 });
  });

  it("a missing file is SOURCE_ERROR at the workflow key that names it", async () => {
    const dir = tempDir();
    const text = `[workflow]\nname = "demo"\nsample_groups_file = "absent.tsv"\n`;
    const error = await engineError(loadPipeline(writeFile(dir, "main.oxoflow", text)));
    expect(error.code).toBe("SOURCE_ERROR");
    expect(error.message).toContain("no such file");
    expect(error.finding).toMatchObject({ file: `${dir}/main.oxoflow`, line: 3, column: 1 });
  });

  it("invalid JSON is SOURCE_ERROR", async () => {
    const error = await engineError(loadWith('sample_groups_file = "g.json"', { "g.json": "[{" }));
    expect(error.code).toBe("SOURCE_ERROR");
    expect(error.message).toContain("not valid JSON");
  });
});

describe("pairs_file", () => {
  it("accepts tumor/normal aliases and keeps other columns as metadata", async () => {
    const tsv = "pair_id\ttumor\tnormal\ttumor_type\tpurity\nP1\tT1\tN1\tFFPE\t0.6\nP2\tT2\t\tfresh\t0.8\n";
    const pipeline = await loadWith('pairs_file = "pairs.tsv"', { "pairs.tsv": tsv });
    expect(pipeline.pairs).toEqual([
      { pair_id: "P1", experiment: "T1", control: "N1", experiment_type: "FFPE", metadata: { purity: "0.6" } },
      { pair_id: "P2", experiment: "T2", control: undefined, experiment_type: "fresh", metadata: { purity: "0.8" } },
    ]);
    expect(pipeline.config.pairs_list).toBe("P1,P2");
    expect(pipeline.config.samples_list).toBe("N1,T1,T2");
  });

  it("reads a CSV samplesheet after the inline [[pairs]]", async () => {
    const csv = "pair_id,experiment,control,experiment_type\nS01,EXP_01,CTRL_01,WGS\n";
    const pipeline = await loadWith('pairs_file = "samplesheet.csv"', { "samplesheet.csv": csv }, {}, '[[pairs]]\npair_id = "I1"\nexperiment = "E"\n');
    expect(pipeline.pairs.map((pair) => [pair.pair_id, pair.experiment, pair.control, pair.experiment_type])).toEqual([
      ["I1", "E", undefined, undefined],
      ["S01", "EXP_01", "CTRL_01", "WGS"],
    ]);
  });

  it("a header without pair_id is SOURCE_ERROR positioned in the file", async () => {
    const error = await engineError(loadWith('pairs_file = "pairs.csv"', { "pairs.csv": "id,tumor\nP1,T1\n" }));
    expect(error.code).toBe("SOURCE_ERROR");
    expect(error.finding).toMatchObject({ file: "pairs.csv", line: 1 });
  });

  it("an unsupported extension is SOURCE_ERROR at the pairs_file key", async () => {
    const error = await engineError(loadWith('pairs_file = "pairs.xlsx"', { "pairs.xlsx": "" }));
    expect(error.code).toBe("SOURCE_ERROR");
    expect(error.message).toContain("unsupported extension '.xlsx'");
    expect(error.finding.line).toBe(3);
  });
});

describe("sample_pattern", () => {
  const reads = { "raw/S1_R1.fq.gz": "", "raw/S1_R2.fq.gz": "", "raw/S2_R1.fq.gz": "", "raw/notes.txt": "", "raw/deeper/S9_R1.fq.gz": "" };

  it("discovers samples in one folder into the group auto-discovered", async () => {
    const pipeline = await loadWith('sample_pattern = "raw/{sample}_R1.fq.gz"', reads);
    expect(groupsOf(pipeline)).toEqual([["auto-discovered", ["S1", "S2"]]]);
    expect(pipeline.config.samples_list).toBe("S1,S2");
    expect(pipeline.config["samples_auto-discovered"]).toBe("S1,S2");
  });

  it("expands {config.*} in the pattern first", async () => {
    const pipeline = await loadWith('sample_pattern = "{config.raw}/{sample}_R2.fq.gz"', reads, {}, '[config]\nraw = "raw"\n');
    expect(groupsOf(pipeline)).toEqual([["auto-discovered", ["S1"]]]);
  });

  it("no match is a warning at the key, not an error", async () => {
    const pipeline = await loadWith('sample_pattern = "raw/{sample}.bam"', reads);
    expect(pipeline.sample_groups).toEqual([]);
    expect(pipeline.warnings).toHaveLength(1);
    expect(pipeline.warnings[0]).toMatchObject({ code: "SOURCE_EMPTY", severity: "warning", line: 3 });
    expect(pipeline.warnings[0]!.message).toContain("matched no files");
  });

  it("a pattern without {sample} is SOURCE_ERROR", async () => {
    const error = await engineError(loadWith('sample_pattern = "raw/{id}.fq"', reads));
    expect(error.code).toBe("SOURCE_ERROR");
    expect(error.message).toContain("must contain {sample}");
    expect(error.finding.line).toBe(3);
  });
});

describe("pairs_pattern", () => {
  it("discovers pairs from file paths; the first file per pair_id wins", async () => {
    const files = { "calls/P1/T1_vs_N1.vcf": "", "calls/P1/T9_vs_N9.vcf": "", "calls/P2/T2_vs_N2.vcf": "", "calls/P3/readme.md": "" };
    const pipeline = await loadWith('pairs_pattern = "calls/{pair_id}/{experiment}_vs_{control}.vcf"', files);
    expect(pipeline.pairs.map((pair) => [pair.pair_id, pair.experiment, pair.control])).toEqual([
      ["P1", "T1", "N1"],
      ["P2", "T2", "N2"],
    ]);
    expect(pipeline.config.pairs_list).toBe("P1,P2");
  });

  it("no match is a warning", async () => {
    const pipeline = await loadWith('pairs_pattern = "calls/{pair_id}/{experiment}_vs_{control}.vcf"');
    expect(pipeline.pairs).toEqual([]);
    expect(pipeline.warnings.map((warning) => warning.code)).toEqual(["SOURCE_EMPTY"]);
  });

  it("a pattern without {control} is SOURCE_ERROR", async () => {
    const error = await engineError(loadWith('pairs_pattern = "calls/{pair_id}/{experiment}.vcf"'));
    expect(error.code).toBe("SOURCE_ERROR");
    expect(error.message).toContain("must contain {control}");
  });
});

describe("--samples", () => {
  const sources = `[[sample_groups]]\nname = "cohort"\nsamples = ["S1", "S2", "S3"]\n\n[[sample_groups]]\nname = "extra"\nsamples = ["X1"]\n\n[[pairs]]\npair_id = "P1"\nexperiment = "S1"\ncontrol = "S2"\n\n[[pairs]]\npair_id = "P2"\nexperiment = "S3"\ncontrol = "X1"\n`;
  const select = (samples: string, files: Record<string, string> = {}) => loadWith("", files, { samples }, sources);

  it("names keep those samples, drop emptied groups and prune pairs that lost a sample", async () => {
    const pipeline = await select("S1,S2");
    expect(groupsOf(pipeline)).toEqual([["cohort", ["S1", "S2"]]]);
    expect(pipeline.pairs.map((pair) => pair.pair_id)).toEqual(["P1"]);
    expect(pipeline.config.samples_list).toBe("S1,S2");
    expect(pipeline.config.pairs_list).toBe("P1");
  });

  it("a pair id keeps the pair and both its samples", async () => {
    const pipeline = await select("P2");
    expect(groupsOf(pipeline)).toEqual([
      ["cohort", ["S3"]],
      ["extra", ["X1"]],
    ]);
    expect(pipeline.pairs.map((pair) => pair.pair_id)).toEqual(["P2"]);
  });

  it("first:N keeps the first N samples in workflow order, plus named ones", async () => {
    const pipeline = await loadWith("", {}, { samples: "first:2,X1" }, `[[sample_groups]]\nname = "a"\nsamples = ["S3", "S1", "S2"]\n\n[[sample_groups]]\nname = "b"\nsamples = ["X1", "X2"]\n`);
    expect(groupsOf(pipeline)).toEqual([
      ["a", ["S3", "S1"]],
      ["b", ["X1"]],
    ]);
  });

  it("unknown names are a USAGE_ERROR listing known samples", async () => {
    const error = await engineError(select("S1,S7"));
    expect(error.code).toBe("USAGE_ERROR");
    expect(error.message).toContain("unknown sample(s): S7");
    expect(error.finding.suggestion).toContain("S1, S2, S3, X1");
  });

  it("a malformed first:N is a USAGE_ERROR", async () => {
    const error = await engineError(select("first:two"));
    expect(error.code).toBe("USAGE_ERROR");
  });

  it("@file replaces every group with the samplesheet's", async () => {
    const pipeline = await loadWith("", { "sheet.tsv": "name\tsamples\nnew\tN1,N2\n" }, { samples: "@sheet.tsv" }, `[[sample_groups]]\nname = "old"\nsamples = ["O1"]\n`);
    expect(groupsOf(pipeline)).toEqual([["new", ["N1", "N2"]]]);
    expect(pipeline.config.samples_list).toBe("N1,N2");
  });

  it("@file may be a plain list of names", async () => {
    const pipeline = await loadWith("", { "list.txt": "# wanted\nA\nB\n" }, { samples: "@list.txt" });
    expect(groupsOf(pipeline)).toEqual([["samples", ["A", "B"]]]);
  });

  it("+@file merges groups of the same name and adds new ones", async () => {
    const pipeline = await loadWith("", { "more.csv": 'name,samples\nold,"O1,O2"\nnew,N1\n' }, { samples: "+@more.csv" }, `[[sample_groups]]\nname = "old"\nsamples = ["O1"]\n`);
    expect(groupsOf(pipeline)).toEqual([
      ["old", ["O1", "O2"]],
      ["new", ["N1"]],
    ]);
  });

  it("bare names declare a group 'samples' when the pipeline has no sample source", async () => {
    const pipeline = await loadWith("", {}, { samples: "A,B" });
    expect(groupsOf(pipeline)).toEqual([["samples", ["A", "B"]]]);
    expect(pipeline.config.samples_list).toBe("A,B");
  });

  it("the author's own samples_list is filtered to the selection", async () => {
    const pipeline = await loadWith("", {}, { samples: "S1" }, `[config]\nsamples_list = "S1,S2,Z9"\n\n${sources}`);
    expect(pipeline.config.samples_list).toBe("S1");
  });
});

it("positions of warnings point at the pattern key in the workflow file", async () => {
  const dir = tempDir();
  const text = `[workflow]\nname = "demo"\ndescription = "x"\nsample_pattern = "fastq/{sample}.fq"\n`;
  const pipeline = await loadPipeline(writeFile(dir, "main.oxoflow", text));
  expect(pipeline.warnings[0]).toMatchObject({ file: `${dir}/main.oxoflow`, line: lineOf(text, "sample_pattern") });
});
