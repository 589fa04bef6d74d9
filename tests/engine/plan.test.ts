import { utimesSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderCommand, renderContext } from "../../src/engine/expand/render-command.js";
import { loadPipelineText } from "../../src/engine/format/load.js";
import type { Pipeline } from "../../src/engine/format/model.js";
import { planPipeline, type Plan } from "../../src/engine/run/plan.js";
import { engineError, removeTempDirs, tempDir, writeFile } from "./temp-workspace.js";

afterAll(removeTempDirs);

const MACHINE = { cpus: 4, memoryMb: 8192 };

async function load(body: string, options: { dir?: string; overrides?: Record<string, string>; samples?: string } = {}): Promise<Pipeline> {
  const { dir = tempDir(), ...rest } = options;
  return loadPipelineText(`[workflow]\nname = "plan"\n\n${body}`, { path: "main.oxoflow", dir, ...rest });
}

/** Each planned job as "name: run|skip (reason)". */
const summary = (plan: Plan): string[] => plan.jobs.map((planned) => `${planned.job.name}: ${planned.run ? "run" : "skip"} (${planned.reason.text})`);

/** Creates files in order, each with a modification time one minute later than the previous one. */
function writeInOrder(dir: string, ...paths: string[]): void {
  const start = Date.now() / 1000 - 3600;
  paths.forEach((path, i) => {
    writeFile(dir, path, path);
    utimesSync(join(dir, path), start + i * 60, start + i * 60);
  });
}

const CHAIN = `[[rules]]
name = "fetch"
output = ["raw.txt"]
shell = "echo data > {output}"

[[rules]]
name = "clean"
input = ["raw.txt"]
output = ["clean.txt"]
shell = "tr a-z A-Z < {input} > {output}"

[[rules]]
name = "report"
input = ["clean.txt"]
output = ["report.txt"]
shell = "wc -l {input} > {output}"
`;

describe("reasons (Decision 5)", () => {
  it("jobs whose outputs are missing have never completed", async () => {
    const plan = planPipeline(await load(CHAIN));
    expect(summary(plan)).toEqual(["fetch: run (never completed)", "clean: run (never completed)", "report: run (never completed)"]);
    expect(plan.jobs.map((planned) => planned.reason.code)).toEqual(["never-completed", "never-completed", "never-completed"]);
    expect(plan.counts).toEqual({ total: 3, run: 3, upToDate: 0, conditionFalse: 0 });
  });

  it("jobs whose outputs are newer than their inputs are up to date", async () => {
    const dir = tempDir();
    writeInOrder(dir, "raw.txt", "clean.txt", "report.txt");
    const plan = planPipeline(await load(CHAIN, { dir }));
    expect(summary(plan)).toEqual(["fetch: skip (outputs up to date)", "clean: skip (outputs up to date)", "report: skip (outputs up to date)"]);
    expect(plan.counts).toMatchObject({ run: 0, upToDate: 3 });
  });

  it("a job downstream of one that must run runs too, naming it", async () => {
    const dir = tempDir();
    // clean.txt is older than raw.txt, so clean must run; report.txt is newer than clean.txt but must follow.
    writeInOrder(dir, "clean.txt", "raw.txt", "report.txt");
    const plan = planPipeline(await load(CHAIN, { dir }));
    expect(summary(plan)).toEqual(["fetch: skip (outputs up to date)", "clean: run (input changed: raw.txt is newer than the outputs)", "report: run (downstream of clean)"]);
    expect(plan.jobs[1]!.reason.code).toBe("input-changed");
    expect(plan.jobs[2]!.reason.code).toBe("downstream");
  });

  it("a missing output means the job runs, even when other outputs exist", async () => {
    const dir = tempDir();
    writeInOrder(dir, "in.txt", "a.txt");
    const plan = planPipeline(await load(`[[rules]]\nname = "two"\ninput = ["in.txt"]\noutput = ["a.txt", "b.txt"]\nshell = "x"\n`, { dir }));
    expect(summary(plan)).toEqual(["two: run (outputs missing: b.txt)"]);
    expect(plan.jobs[0]!.reason.code).toBe("outputs-missing");
  });

  it("a false when condition skips the job; its dependents are judged on their own files", async () => {
    const dir = tempDir();
    writeInOrder(dir, "raw.txt", "clean.txt");
    const body = `[config]\ndo_report = false\n\n${CHAIN}when = "config.do_report"\n`;
    const plan = planPipeline(await load(body, { dir }));
    expect(summary(plan)).toEqual(["fetch: skip (outputs up to date)", "clean: skip (outputs up to date)", "report: skip (when condition false)"]);
    expect(plan.counts).toEqual({ total: 3, run: 0, upToDate: 2, conditionFalse: 1 });
  });

  it("when conditions see each pair's bindings (wildcard.control)", async () => {
    const body = `[[pairs]]\npair_id = "P1"\nexperiment = "T1"\ncontrol = "N1"\n\n[[pairs]]\npair_id = "P2"\nexperiment = "T2"\n\n[[rules]]\nname = "somatic"\noutput = ["{pair_id}.vcf"]\nshell = "call {experiment} {control}"\nwhen = "wildcard.control != ''"\n`;
    expect(summary(planPipeline(await load(body)))).toEqual(["somatic_P1: run (never completed)", "somatic_P2: skip (when condition false)"]);
  });

  it("file_exists in when resolves in the workflow folder (Decision 8)", async () => {
    const dir = tempDir();
    writeFile(dir, "flags/enabled", "");
    const body = `[[rules]]\nname = "on"\noutput = ["on.txt"]\nshell = "x"\nwhen = "file_exists('flags/enabled')"\n\n[[rules]]\nname = "off"\noutput = ["off.txt"]\nshell = "x"\nwhen = "file_exists('package.json')"\n`;
    expect(summary(planPipeline(await load(body, { dir }))).sort()).toEqual(["off: skip (when condition false)", "on: run (never completed)"]);
  });

  it("--rerun forces every selected job", async () => {
    const dir = tempDir();
    writeInOrder(dir, "raw.txt", "clean.txt", "report.txt");
    const plan = planPipeline(await load(CHAIN, { dir }), { rerun: true });
    expect(summary(plan)).toEqual(["fetch: run (forced (--rerun))", "clean: run (forced (--rerun))", "report: run (forced (--rerun))"]);
  });

  it("-t plans only the target and what it needs", async () => {
    const plan = planPipeline(await load(CHAIN), { targets: ["clean"] });
    expect(plan.jobs.map((planned) => planned.job.name)).toEqual(["fetch", "clean"]);
  });
});

describe("what cannot run", () => {
  it("undefined config references stop planning (E005 gate)", async () => {
    const pipeline = await load(`[config]\nref = "g.fa"\n\n[[rules]]\nname = "align"\noutput = ["a.bam"]\nshell = "bwa {config.ref} {config.index} > {output}"\n`);
    const error = await engineError(() => planPipeline(pipeline));
    expect(error.code).toBe("E005");
    expect(error.message).toBe("workflow references undefined config variable(s) — fix before running: rule 'align': config.index");
    expect(error.finding).toMatchObject({ rule: "align", line: 10 });
  });

  it("a command-line value supplies the missing key", async () => {
    const pipeline = await load(`[[rules]]\nname = "align"\noutput = ["a.bam"]\nshell = "bwa {config.index}"\n`, { overrides: { index: "idx" } });
    expect(planPipeline(pipeline).counts.run).toBe(1);
  });

  it("a required declared config entry without a value stops planning", async () => {
    const pipeline = await load(`[config]\ngenome = { required = true, help = "FASTA to align to" }\n\n[[rules]]\nname = "a"\noutput = ["a"]\nshell = "x {config.genome}"\n`);
    const error = await engineError(() => planPipeline(pipeline));
    expect(error.code).toBe("CONFIG_ERROR");
    expect(error.message).toBe("required config 'genome' not set (FASTA to align to)");
  });
});

describe("rendering commands", () => {
  const render = (plan: Plan, name: string): string => {
    const planned = plan.jobs.find((candidate) => candidate.job.name === name)!;
    return renderCommand(planned.job, renderContext(plan.pipeline, MACHINE));
  };

  it("fills file, resource, params and config placeholders", async () => {
    const body = `[config]
chroms = ["chr1", "chr2"]
genome = "ref/{config.build}.fa"
build = "hg38"

[[rules]]
name = "call"
input = ["a.bam", "b.bam"]
output = { vcf = "out.vcf", stats = "out.stats" }
log = "logs/call.log"
shell = "caller -R {config.genome} -L {config.chroms} --bams {input} --second {input[1]} -o {output.vcf} -s {output.stats} --all {output} -t {threads} -m {memory} --q {params.min_q} --flags {params.flags} {missing} \${HOME} 2> {log}"
params = { min_q = 20, flags = ["a", "b"] }

[rules.resources]
threads = 6
`;
    const command = render(planPipeline(await load(body)), "call");
    expect(command).toBe(
      "caller -R ref/hg38.fa -L chr1 chr2 --bams a.bam b.bam --second b.bam -o out.vcf -s out.stats --all out.vcf out.stats -t 6 -m {memory} --q 20 --flags a b {missing} ${HOME} 2> logs/call.log",
    );
  });

  it("effective threads and memory are capped at the machine's", async () => {
    const body = `[defaults]\nmemory = "64G"\n\n[[rules]]\nname = "big"\nthreads = 16\nshell = "tool -t {effective_threads} -m {effective_memory_mb} -M {memory}"\n\n[[rules]]\nname = "small"\nshell = "tool -t {effective_threads} -m {effective_memory_mb}"\nresources = { threads = 2, memory = "512M" }\n`;
    const plan = planPipeline(await load(body));
    expect(render(plan, "big")).toBe("tool -t 4 -m 8192 -M 64G");
    expect(render(plan, "small")).toBe("tool -t 2 -m 512");
  });

  it("a script rule runs its script with the interpreter of its extension", async () => {
    const body = `[workflow.interpreter_map]\nR = "Rscript --vanilla"\n\n[[rules]]\nname = "py"\ninput = ["in.csv"]\nscript = "scripts/plot.py --in {input}"\n\n[[rules]]\nname = "r"\nscript = "scripts/model.R"\n`;
    const pipeline = await loadPipelineText(`[workflow]\nname = "plan"\n\n${body}`, { dir: tempDir() });
    const plan = planPipeline(pipeline);
    const context = renderContext(pipeline, MACHINE);
    const command = (name: string) => renderCommand(plan.jobs.find((planned) => planned.job.name === name)!.job, context, pipeline.workflow.interpreter_map);
    expect(command("py")).toBe("python scripts/plot.py --in in.csv");
    expect(command("r")).toBe("Rscript --vanilla scripts/model.R");
  });
});

describe("sample and config values that reach a shell (Decision 12)", () => {
  const groups = (sample: string) => `[[sample_groups]]\nname = "cohort"\nsamples = ["S1", ${JSON.stringify(sample)}]\n`;
  const renderAll = (pipeline: Pipeline): string[] => {
    const context = renderContext(pipeline, MACHINE);
    return planPipeline(pipeline).jobs.map((planned) => renderCommand(planned.job, context));
  };

  it("a sample name with ';' used as {sample} is UNSAFE_VALUE naming the sample", async () => {
    const pipeline = await load(`${groups("S2;rm -rf data")}\n[[rules]]\nname = "qc"\noutput = ["qc/{sample}.html"]\nshell = "fastqc {sample}"\n`);
    const error = await engineError(() => renderAll(pipeline));
    expect(error.code).toBe("UNSAFE_VALUE");
    expect(error.message).toBe("sample 'S2;rm -rf data' (job qc_cohort_S2;rm -rf data) contains shell metacharacters or spaces");
    expect(error.finding.suggestion).toContain("'S2_rm_-rf_data'");
  });

  it("a sample name reaching the command through {input} or {output} is refused too", async () => {
    const viaInput = await load(`${groups("S2;reboot")}\n[[rules]]\nname = "qc"\ninput = ["raw/{sample}.fq"]\noutput = ["qc.html"]\nshell = "fastqc {input}"\n`);
    expect((await engineError(() => renderAll(viaInput))).code).toBe("UNSAFE_VALUE");
    const viaOutput = await load(`${groups("S2 x")}\n[[rules]]\nname = "touch"\noutput = ["done/{sample}"]\nshell = "touch {output[0]}"\n`);
    expect((await engineError(() => renderAll(viaOutput))).message).toContain("sample 'S2 x'");
  });

  it("sample names reaching the command through injected sample lists are refused", async () => {
    const viaList = await load(`${groups("S2|nc")}\n[[rules]]\nname = "all"\noutput = ["all.txt"]\nshell = "merge {config.samples_list} > {output}"\n`);
    const error = await engineError(() => renderAll(viaList));
    expect(error.message).toBe("config 'samples_list' lists sample or pair names that contain shell metacharacters: S1,S2|nc");
    const viaExpand = await load(`${groups("S2&")}\n[[rules]]\nname = "all"\noutput = ["all.txt"]\nshell = "merge {input}"\nexpand_inputs = [{ pattern = "{s}.vcf", variables = { s = "config.samples_cohort" } }]\n`);
    expect((await engineError(() => renderAll(viaExpand))).code).toBe("UNSAFE_VALUE");
  });

  it("safe names render normally", async () => {
    const pipeline = await load(`${groups("S-2.b_c")}\n[[rules]]\nname = "qc"\ninput = ["raw/{sample}.fq"]\noutput = ["qc/{sample}.html"]\nshell = "fastqc {input} -o {output} # {sample} {config.samples_list}"\n`);
    expect(renderAll(pipeline)).toEqual(["fastqc raw/S1.fq -o qc/S1.html # S1 S-2.b_c,S1", "fastqc raw/S-2.b_c.fq -o qc/S-2.b_c.html # S-2.b_c S-2.b_c,S1"]);
  });

  it("a config value written in the pipeline file may hold shell syntax; the same value from the command line may not", async () => {
    const body = `[config]\nfilter = "grep -v '#' | sort; echo done"\n\n[[rules]]\nname = "f"\noutput = ["f.txt"]\nshell = "cat in | {config.filter} > {output}"\n`;
    expect(renderAll(await load(body))).toEqual(["cat in | grep -v '#' | sort; echo done > f.txt"]);
    const overridden = await load(body, { overrides: { filter: "sort; rm -rf ~" } });
    const error = await engineError(() => renderAll(overridden));
    expect(error.code).toBe("UNSAFE_VALUE");
    expect(error.message).toBe("config 'filter' given on the command line contains shell metacharacters: sort; rm -rf ~");
  });

  it("a command-line value reaching the command through a path is refused", async () => {
    const body = `[config]\nout = "results"\n\n[[rules]]\nname = "w"\noutput = ["{config.out}/x.txt"]\nshell = "touch {output}"\n`;
    const overridden = await load(body, { overrides: { out: "r$(id)" } });
    expect((await engineError(() => renderAll(overridden))).code).toBe("UNSAFE_VALUE");
    expect(renderAll(await load(body, { overrides: { out: "elsewhere" } }))).toEqual(["touch elsewhere/x.txt"]);
  });
});
