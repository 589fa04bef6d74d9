import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expandPipeline, type Expansion, type Job } from "../../../src/engine/expand/expand.js";
import { renderCommand, renderContext } from "../../../src/engine/expand/render-command.js";
import { loadPipelineText } from "../../../src/engine/format/load.js";
import type { Pipeline } from "../../../src/engine/format/model.js";
import { engineError, removeTempDirs, tempDir, writeFile } from "../../support/temp-workspace.js";

afterAll(removeTempDirs);

const MACHINE = { cpus: 8, memoryMb: 16_384 };

async function load(body: string, dir = tempDir()): Promise<Pipeline> {
  return loadPipelineText(`[workflow]\nname = "demo"\n\n${body}`, { path: "main.oxoflow", dir });
}

async function expand(body: string, dir?: string): Promise<Expansion> {
  return expandPipeline(await load(body, dir), "plan");
}

const names = (expansion: Expansion): string[] => expansion.jobs.map((job) => job.name);

function job(expansion: Expansion, name: string): Job {
  const found = expansion.jobs.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no job ${name}; jobs: ${names(expansion).join(", ")}`);
  return found;
}

const command = (expansion: Expansion, name: string): string => renderCommand(job(expansion, name), renderContext(expansion.pipeline, MACHINE));

const GROUPS = `[[sample_groups]]\nname = "tumor"\nsamples = ["T1", "T2"]\nmetadata = { tissue = "liver" }\n\n[[sample_groups]]\nname = "normal"\nsamples = ["N1"]\n`;
const PAIRS = `[[pairs]]\npair_id = "P1"\nexperiment = "T1"\ncontrol = "N1"\nexperiment_type = "WGS"\n\n[[pairs]]\npair_id = "P2"\ntumor = "T2"\nmetadata = { purity = "0.7" }\n`;

describe("sample groups", () => {
  it("expand to <rule>_<group>_<sample> in group then sample order, with group metadata bound", async () => {
    const expansion = await expand(`${GROUPS}\n[[rules]]\nname = "align"\ninput = ["raw/{sample}.fq"]\noutput = ["bam/{group}/{sample}.bam"]\nshell = "bwa {input} > {output} # {tissue}"\n`);
    expect(names(expansion)).toEqual(["align_tumor_T1", "align_tumor_T2", "align_normal_N1"]);
    const t1 = job(expansion, "align_tumor_T1");
    expect(t1.bindings).toEqual({ tissue: "liver", group: "tumor", sample: "T1" });
    expect(t1.input.paths).toEqual(["raw/T1.fq"]);
    expect(t1.output.paths).toEqual(["bam/tumor/T1.bam"]);
    expect(command(expansion, "align_tumor_T1")).toBe("bwa raw/T1.fq > bam/tumor/T1.bam # liver");
    expect(expansion.instancesOf.get("align")).toEqual([0, 1, 2]);
  });

  it("leave rules without sample wildcards alone, and {sample} literal when there are no groups", async () => {
    const expansion = await expand(`[[rules]]\nname = "report"\ninput = ["{sample}.txt"]\noutput = ["r.html"]\nshell = "r"\n`);
    expect(names(expansion)).toEqual(["report"]);
    expect(expansion.jobs[0]!.input.paths).toEqual(["{sample}.txt"]);
  });
});

describe("pairs", () => {
  it("expand to <rule>_<pair_id> with experiment/control and tumor/normal bound", async () => {
    const expansion = await expand(`${PAIRS}\n[[rules]]\nname = "call"\ninput = ["bam/{tumor}.bam", "bam/{normal}.bam"]\noutput = ["vcf/{pair_id}.vcf"]\nshell = "mutect2 -t {experiment} -n {control} --type {experiment_type} {output}"\n`);
    expect(names(expansion)).toEqual(["call_P1", "call_P2"]);
    expect(job(expansion, "call_P1").bindings).toEqual({ pair_id: "P1", experiment: "T1", tumor: "T1", control: "N1", normal: "N1", experiment_type: "WGS", tumor_type: "WGS" });
    expect(command(expansion, "call_P1")).toBe("mutect2 -t T1 -n N1 --type WGS vcf/P1.vcf");
    // A tumour-only pair binds control to "" and has no experiment_type; its metadata keys are wildcards.
    const p2 = job(expansion, "call_P2");
    expect(p2.bindings).toMatchObject({ control: "", normal: "", purity: "0.7" });
    expect(p2.bindings.experiment_type).toBeUndefined();
    expect(p2.input.paths).toEqual(["bam/T2.bam", "bam/.bam"]);
  });

  it("take precedence over groups; {sample} stays literal in pair instances", async () => {
    const expansion = await expand(`${GROUPS}\n${PAIRS}\n[[rules]]\nname = "mix"\noutput = ["{pair_id}/{sample}.txt"]\nshell = "x"\n`);
    expect(names(expansion)).toEqual(["mix_P1", "mix_P2"]);
    expect(job(expansion, "mix_P1").output.paths).toEqual(["P1/{sample}.txt"]);
  });

  it("a pair metadata key alone triggers pair expansion", async () => {
    const expansion = await expand(`${PAIRS}\n[[rules]]\nname = "purity"\noutput = ["p_{purity}.txt"]\nshell = "x"\n`);
    expect(names(expansion)).toEqual(["purity_P1", "purity_P2"]);
    expect(job(expansion, "purity_P1").output.paths).toEqual(["p_{purity}.txt"]);
  });
});

describe("[[values]]", () => {
  it("fan out over the cartesian product with _<table>_<value> suffixes, last table fastest", async () => {
    const body = `[[values]]\nname = "caller"\nvalues = ["gatk", "free-bayes"]\n\n[[values]]\nname = "depth"\nvalues = ["10", "30"]\n\n[[rules]]\nname = "call"\noutput = ["{caller}/{values.depth}.vcf"]\nshell = "run {caller} {depth}"\n`;
    const expansion = await expand(body);
    expect(names(expansion)).toEqual(["call_caller_gatk_depth_10", "call_caller_gatk_depth_30", "call_caller_free_bayes_depth_10", "call_caller_free_bayes_depth_30"]);
    expect(job(expansion, "call_caller_free_bayes_depth_30").output.paths).toEqual(["free-bayes/30.vcf"]);
    expect(command(expansion, "call_caller_gatk_depth_10")).toBe("run gatk 10");
  });

  it("combine with groups as <rule><values suffix>_<group>_<sample>", async () => {
    const body = `${GROUPS}\n[[values]]\nname = "k"\nvalues = ["21"]\n\n[[rules]]\nname = "asm"\ninput = ["{sample}.fq"]\noutput = ["{sample}_k{k}.fa"]\nshell = "x"\n`;
    const expansion = await expand(body);
    expect(names(expansion)).toEqual(["asm_k_21_tumor_T1", "asm_k_21_tumor_T2", "asm_k_21_normal_N1"]);
  });

  it("values_from reads a config array or comma-separated string (Decision 2)", async () => {
    const body = `[config]\nchroms = ["chr1", "chr2"]\ntools = "a, b"\n\n[[values]]\nname = "chrom"\nvalues_from = "config.chroms"\n\n[[values]]\nname = "tool"\nvalues_from = "tools"\n\n[[rules]]\nname = "r"\noutput = ["{tool}/{chrom}.txt"]\nshell = "x"\n`;
    const expansion = await expand(body);
    expect(names(expansion)).toEqual(["r_chrom_chr1_tool_a", "r_chrom_chr1_tool_b", "r_chrom_chr2_tool_a", "r_chrom_chr2_tool_b"]);
  });

  it("values_from naming a missing config key is E005 at values_from", async () => {
    const error = await engineError(expand(`[[values]]\nname = "chrom"\nvalues_from = "config.nope"\n`));
    expect(error.code).toBe("E005");
    expect(error.message).toContain("config has no key 'nope'");
    expect(error.finding.line).toBe(6);
  });

  it("a table with a reserved name is EXPAND_ERROR (an empty table switches its rules off: empty-fan-outs.test.ts)", async () => {
    expect((await engineError(expand(`[[values]]\nname = "sample"\nvalues = ["a"]\n`))).message).toContain("reserved wildcard name");
  });
});

describe("named inputs and outputs (Decision 1)", () => {
  it("keep their names and declaration order in sample instances", async () => {
    const body = `${GROUPS}\n[[rules]]\nname = "align"\ninput = { reads = "raw/{sample}.fq", genome = "ref/genome.fa", adapters = "a.fa" }\noutput = { bam = "{sample}.bam", bai = "{sample}.bam.bai" }\nshell = "bwa {input.genome} {input.reads} > {output.bam} && index {output.bai} # {input} | {input[2]}"\n`;
    const expansion = await expand(body);
    const t2 = job(expansion, "align_tumor_T2");
    expect(t2.input).toEqual({ paths: ["raw/T2.fq", "ref/genome.fa", "a.fa"], names: ["reads", "genome", "adapters"] });
    expect(t2.output.names).toEqual(["bam", "bai"]);
    expect(command(expansion, "align_tumor_T2")).toBe("bwa ref/genome.fa raw/T2.fq > T2.bam && index T2.bam.bai # raw/T2.fq ref/genome.fa a.fa | a.fa");
  });

  it("keep their names in pair instances", async () => {
    const body = `${PAIRS}\n[[rules]]\nname = "call"\ninput = { tumor_bam = "{tumor}.bam", normal_bam = "{normal}.bam" }\noutput = ["{pair_id}.vcf"]\nshell = "call -t {input.tumor_bam} -n {input.normal_bam}"\n`;
    expect(command(await expand(body), "call_P1")).toBe("call -t T1.bam -n N1.bam");
  });
});

describe("scatter and gather", () => {
  const body = `[config]\nchroms = ["chr1", "chr2", "chr3"]\n\n[[rules]]\nname = "call"\ninput = ["s.bam"]\noutput = ["calls/{chrom}.vcf"]\nshell = "call -L {chrom} {input} > {output}"\n\n[rules.scatter]\nvariable = "chrom"\nvalues_from = "config.chroms"\ngather = "merge"\n\n[[rules]]\nname = "merge"\noutput = ["all.vcf"]\nshell = "cat {input} > {output}"\n\n[[rules]]\nname = "after"\noutput = ["done"]\nshell = "touch done"\ndepends_on = ["call"]\n`;

  it("make one job per value and give the gather rule every scattered output", async () => {
    const expansion = await expand(body);
    expect(names(expansion)).toEqual(["call_chr1", "call_chr2", "call_chr3", "merge", "after"]);
    expect(command(expansion, "call_chr2")).toBe("call -L chr2 s.bam > calls/chr2.vcf");
    expect(job(expansion, "merge").input.paths).toEqual(["calls/chr1.vcf", "calls/chr2.vcf", "calls/chr3.vcf"]);
    expect(command(expansion, "merge")).toBe("cat calls/chr1.vcf calls/chr2.vcf calls/chr3.vcf > all.vcf");
  });

  it("rewrite depends_on naming the scatter rule to all its instances", async () => {
    expect(job(await expand(body), "after").dependsOn).toEqual(["call_chr1", "call_chr2", "call_chr3"]);
  });

  it("gather per sample: each sample's gather instance gets that sample's outputs", async () => {
    const perSample = `${GROUPS}\n[[rules]]\nname = "call"\ninput = ["{sample}.bam"]\noutput = ["{sample}/{chrom}.vcf"]\nshell = "x"\nscatter = { variable = "chrom", values = ["1", "2"], gather = "merge" }\n\n[[rules]]\nname = "merge"\noutput = ["{sample}.vcf"]\nshell = "cat {input} > {output}"\n`;
    const expansion = await expand(perSample);
    expect(names(expansion).slice(0, 2)).toEqual(["call_tumor_T1_1", "call_tumor_T1_2"]);
    expect(job(expansion, "merge_tumor_T2").input.paths).toEqual(["T2/1.vcf", "T2/2.vcf"]);
  });

  it("a scatter without values is EXPAND_ERROR; gathering into no rule is EXPAND_ERROR", async () => {
    const noValues = await engineError(expand(`[[rules]]\nname = "s"\nshell = "x"\nscatter = { variable = "c", values_from = "config.none" }\n`));
    expect(noValues.message).toContain("which is not a config key");
    const noTarget = await engineError(expand(`[[rules]]\nname = "s"\nshell = "x"\nscatter = { variable = "c", values = ["1"], gather = "ghost" }\n`));
    expect(noTarget.message).toBe("scatter of rule 's' gathers into 'ghost', which is not a rule");
  });
});

describe("transform", () => {
  it("splits values into map jobs and a combine job whose concat header goes into the output file (Decision 9)", async () => {
    const dir = tempDir();
    const body = `[[rules]]\nname = "count"\ninput = { table = "data.tsv" }\noutput = ["out/total.txt"]\n\n[rules.transform]\nsplit = { by = "part", values = ["a", "b"] }\nmap = "grep {part} {input.table} > {output}"\ncombine = { aggregate = true, method = "concat", header = "# parts" }\n`;
    const expansion = await expand(body, dir);
    expect(names(expansion)).toEqual(["count_a", "count_b", "count_combine"]);
    const chunks = [".strand/chunks/count/part/a.txt", ".strand/chunks/count/part/b.txt"];
    expect(job(expansion, "count_a").output.paths).toEqual([chunks[0]]);
    expect(job(expansion, "count_combine").input.paths).toEqual(chunks);
    expect(job(expansion, "count_combine").output.paths).toEqual(["out/total.txt"]);

    // Run the real commands: the map steps, then the combine step; the header must land in the file.
    writeFile(dir, "data.tsv", "a\t1\nb\t2\na\t3\n");
    writeFile(dir, "out/.keep", "");
    for (const name of ["count_a", "count_b", "count_combine"]) {
      const text = command(expansion, name);
      execFileSync("bash", ["-c", `mkdir -p .strand/chunks/count/part && ${text}`], { cwd: dir });
    }
    expect(readFileSync(join(dir, "out/total.txt"), "utf8")).toBe("# parts\na\t1\na\t3\nb\t2\n");
  });

  it("uses output[0] with {by} filled when it contains the split variable", async () => {
    const expansion = await expand(`[[rules]]\nname = "t"\noutput = ["parts/{n}.txt"]\n\n[rules.transform]\nsplit = { by = "n", n = "3" }\nmap = "echo {n} > {output}"\n`);
    expect(names(expansion)).toEqual(["t_0", "t_1", "t_2"]);
    expect(job(expansion, "t_2").output.paths).toEqual(["parts/2.txt"]);
    expect(command(expansion, "t_2")).toBe("echo 2 > parts/2.txt");
  });

  it("without outputs, map chunks are <chunks>/<rule>/<by>/<value>.out; n may name a config key", async () => {
    const expansion = await expand(`[config]\nshards = 2\n\n[[rules]]\nname = "t"\n\n[rules.transform]\nsplit = { by = "i", n = "config.shards" }\nmap = "work {i}"\n`);
    expect(expansion.jobs.map((j) => j.output.paths[0])).toEqual([".strand/chunks/t/i/0.out", ".strand/chunks/t/i/1.out"]);
  });

  it("n naming a config table is a coded expansion error, not a crash", async () => {
    await expect(expand(`[config]\nn = {}\n\n[[rules]]\nname = "t"\n\n[rules.transform]\nsplit = { by = "chr", n = "config.n" }\nmap = "work {chr}"\n`)).rejects.toMatchObject({ code: "EXPAND_ERROR" });
  });

  it("values_from reads config, and combine.shell gets {chunks} and {output}", async () => {
    const body = `[config]\nregions = "r1,r2"\n\n[[rules]]\nname = "t"\noutput = ["merged.json"]\n\n[rules.transform]\nsplit = { by = "r", values_from = "config.regions" }\nmap = "work {r} > {output}"\ncombine = { shell = "merge {chunks} -o {output}" }\n`;
    const expansion = await expand(body);
    expect(command(expansion, "t_combine")).toBe("merge .strand/chunks/t/r/r1.json .strand/chunks/t/r/r2.json -o merged.json");
  });

  it("glob values are paths relative to the workflow folder", async () => {
    const dir = tempDir();
    writeFile(dir, "in/x.fq", "");
    writeFile(dir, "in/y.fq", "");
    writeFile(dir, "in/z.txt", "");
    const expansion = await expand(`[[rules]]\nname = "t"\n\n[rules.transform]\nsplit = { by = "f", glob = "in/*.fq" }\nmap = "gzip {f}"\n`, dir);
    expect(expansion.jobs.map((j) => j.bindings.f)).toEqual(["in/x.fq", "in/y.fq"]);
  });

  it("json_merge uses jq; an unknown method or a combine without a command is EXPAND_ERROR", async () => {
    const base = (combine: string, split = 'values = ["a"]') => `[[rules]]\nname = "t"\noutput = ["o.json"]\n\n[rules.transform]\nsplit = { by = "v", ${split} }\nmap = "m"\ncombine = ${combine}\n`;
    const merged = await expand(base('{ aggregate = true, method = "json_merge" }'));
    expect(command(merged, "t_combine")).toBe("jq -s 'add' .strand/chunks/t/v/a.json > o.json");
    const unknown = await engineError(expand(base('{ aggregate = true, method = "zip" }')));
    expect(unknown.message).toBe("transform of rule 't': unknown combine method 'zip'");
    // Positioned at the method key inside the inline combine table.
    expect(unknown.finding).toMatchObject({ line: 11, column: 31 });
    expect((await engineError(expand(base("{ }")))).message).toContain("combine needs a shell command or aggregate = true");
    // Splitting into nothing (values = [], a glob without matches) switches the rule off: empty-fan-outs.test.ts.
    expect((await expand(base("{ shell = 'x' }", 'values = []'))).jobs).toEqual([]);
    expect((await expand(base("{ shell = 'x' }", 'glob = "none/*.x"'))).jobs).toEqual([]);
  });
});

describe("expand_inputs", () => {
  it("appends the product over config lists and [a,b] literals", async () => {
    const body = `[config]\nsamples = ["S1", "S2"]\n\n[[rules]]\nname = "merge"\ninput = ["header.txt"]\noutput = ["all.vcf"]\nshell = "merge {input}"\nexpand_inputs = [{ pattern = "calls/{sample}.{ext}", variables = { sample = "config.samples", ext = "[vcf, tbi]" } }]\n`;
    const expansion = await expand(body);
    expect(expansion.jobs[0]!.input.paths).toEqual(["header.txt", "calls/S1.vcf", "calls/S1.tbi", "calls/S2.vcf", "calls/S2.tbi"]);
  });

  it("fills names the entry does not declare from the instance, and reads injected keys", async () => {
    const body = `${GROUPS}\n[[values]]\nname = "caller"\nvalues = ["gatk"]\n\n[[rules]]\nname = "cohort"\noutput = ["{caller}/cohort.vcf"]\nshell = "x"\nexpand_inputs = [{ pattern = "{caller}/{sample}.vcf", variables = { sample = "config.samples_tumor" } }]\n`;
    const expansion = await expand(body);
    expect(names(expansion)).toEqual(["cohort_caller_gatk"]);
    expect(expansion.jobs[0]!.input.paths).toEqual(["gatk/T1.vcf", "gatk/T2.vcf"]);
  });

  it("a literal single value and a missing config key are taken as written", async () => {
    const body = `[[rules]]\nname = "r"\noutput = ["o"]\nshell = "x"\nexpand_inputs = [{ pattern = "{a}/{b}.txt", variables = { a = "fixed", b = "config.missing" } }]\n`;
    expect((await expand(body)).jobs[0]!.input.paths).toEqual(["fixed/config.missing.txt"]);
  });
});

describe("wildcard_constraints", () => {
  it("drop combinations whose value does not match (unanchored search)", async () => {
    const body = `[wildcard_constraints]\nsample = "^T"\ncaller = "gatk"\n\n${GROUPS}\n[[values]]\nname = "caller"\nvalues = ["gatk4", "strelka"]\n\n[[rules]]\nname = "call"\ninput = ["{sample}.bam"]\noutput = ["{caller}/{sample}.vcf"]\nshell = "x"\n`;
    expect(names(await expand(body))).toEqual(["call_caller_gatk4_tumor_T1", "call_caller_gatk4_tumor_T2"]);
  });

  it("match in linear time: a pattern that backtracks exponentially in JavaScript meets a near-miss value at once", async () => {
    // With a backtracking matcher, (a|a)*$ against 50 a's and a "!" takes about 2^50 steps: this test would hang.
    const nearMiss = `${"a".repeat(50)}!`;
    const body = `[wildcard_constraints]\nsample = "(a|a)*$"\n\n[[sample_groups]]\nname = "g"\nsamples = ["${nearMiss}", "${"a".repeat(50)}"]\n\n[[rules]]\nname = "qc"\ninput = ["{sample}.fq"]\noutput = ["{sample}.txt"]\nshell = "x"\n`;
    // Unanchored at the start, (a|a)*$ matches the empty string at the end of any value: both are kept.
    expect(names(await expand(body))).toEqual([`qc_g_${nearMiss}`, `qc_g_${"a".repeat(50)}`]);
    const anchored = body.replace('"(a|a)*$"', '"^(a|a)*$"');
    expect(names(await expand(anchored))).toEqual([`qc_g_${"a".repeat(50)}`]);
  });
});

describe("instance names", () => {
  it("a collision between instances is EXPAND_ERROR 'duplicate rule name'", async () => {
    const body = `${GROUPS}\n[[rules]]\nname = "qc"\ninput = ["{sample}.fq"]\noutput = ["{sample}.html"]\nshell = "x"\n\n[[rules]]\nname = "qc_tumor_T1"\noutput = ["x"]\nshell = "x"\n`;
    const error = await engineError(expand(body));
    expect(error.code).toBe("EXPAND_ERROR");
    expect(error.message).toBe("duplicate rule name: 'qc_tumor_T1' (expanded from rules 'qc' and 'qc_tumor_T1')");
  });

  it("depends_on naming a sample template is rewritten to all its instances", async () => {
    const body = `${GROUPS}\n[[rules]]\nname = "qc"\ninput = ["{sample}.fq"]\noutput = ["{sample}.html"]\nshell = "x"\n\n[[rules]]\nname = "report"\noutput = ["r"]\nshell = "x"\ndepends_on = ["qc", "unknown"]\n`;
    expect(job(await expand(body), "report").dependsOn).toEqual(["qc_tumor_T1", "qc_tumor_T2", "qc_normal_N1", "unknown"]);
  });
});

describe("template mode", () => {
  it("keeps each rule as one job with its paths as written", async () => {
    const body = `${GROUPS}\n[[rules]]\nname = "align"\ninput = ["{sample}.fq"]\noutput = ["{sample}.bam"]\nshell = "x"\nscatter = { variable = "c", values = ["1", "2"], gather = "merge" }\n\n[[rules]]\nname = "merge"\noutput = ["all.bam"]\nshell = "x"\nexpand_inputs = [{ pattern = "{sample}.bai", variables = { sample = "config.samples_list" } }]\n`;
    const expansion = expandPipeline(await load(body), "template");
    expect(expansion.mode).toBe("template");
    expect(names(expansion)).toEqual(["align", "merge"]);
    expect(expansion.jobs[0]!.output.paths).toEqual(["{sample}.bam"]);
    expect(expansion.jobs[0]!.bindings).toEqual({});
    // The gather rule lists the scattered outputs as written; aggregated patterns are inputs too.
    expect(expansion.jobs[1]!.input.paths).toEqual(["{sample}.bai", "{sample}.bam"]);
  });
});
