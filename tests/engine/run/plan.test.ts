import { rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderCommand, renderContext } from "../../../src/engine/expand/render-command.js";
import { loadPipelineText } from "../../../src/engine/format/load.js";
import type { Pipeline } from "../../../src/engine/format/model.js";
import { openCheckpoint, readCheckpoint, type CheckpointData, type CheckpointStore } from "../../../src/engine/run/checkpoint/checkpoint.js";
import { configSnapshot, createJobRecord, type JobOutcome } from "../../../src/engine/run/checkpoint/fingerprint.js";
import { planPipeline, type Plan, type PlanOptions } from "../../../src/engine/run/plan.js";
import { engineError, removeTempDirs, tempDir, writeFile } from "../../support/temp-workspace.js";

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
    expect(plan.counts).toEqual({ total: 3, run: 3, upToDate: 0, conditionFalse: 0, notSelected: 0 });
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
    expect(plan.counts).toEqual({ total: 3, run: 0, upToDate: 2, conditionFalse: 1, notSelected: 0 });
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

const COMPLETED: JobOutcome = { status: "completed", exit_code: 0, wall_time_secs: 0.1, retries: 0, command: "true", stderr_tail: "" };

/**
 * Does what a run does, without running commands: plans with the workdir's checkpoint, writes each running
 * job's outputs, and records the job through the store (journal, then compaction at the end).
 */
function simulateRun(pipeline: Pipeline, options: PlanOptions & { fail?: string[] } = {}): CheckpointStore {
  const store = openCheckpoint(pipeline.dir, { workflowPath: pipeline.path });
  const plan = planPipeline(pipeline, { ...options, checkpoint: store.data });
  const { graph } = plan;
  const notDone = new Set<number>();
  for (const planned of plan.jobs) {
    if (!planned.run) continue;
    // A job behind a failed one is blocked: it does not run and is not recorded.
    let blocked = false;
    for (let k = graph.predStart[planned.index]!; k < graph.predStart[planned.index + 1]!; k++) if (notDone.has(graph.pred[k]!)) blocked = true;
    if (blocked) {
      notDone.add(planned.index);
      continue;
    }
    const failed = options.fail?.includes(planned.job.name) ?? false;
    if (failed) notDone.add(planned.index);
    if (!failed) for (const output of planned.job.output.paths) writeFile(pipeline.dir, output, `made by ${planned.job.name}`);
    store.record(planned.job.name, createJobRecord(planned.job, pipeline, failed ? { ...COMPLETED, status: "failed", exit_code: 1 } : COMPLETED));
  }
  store.setConfigSnapshot(configSnapshot(pipeline));
  store.compact();
  return store;
}

/** Plans against the checkpoint on disk, read-only, as dry-run does. */
function replan(pipeline: Pipeline, options: PlanOptions = {}): Plan {
  return planPipeline(pipeline, { ...options, checkpoint: readCheckpoint(pipeline.dir) as CheckpointData });
}

/** Each job as "name: run|skip code (text)". */
const coded = (plan: Plan): string[] => plan.jobs.map((planned) => `${planned.job.name}: ${planned.run ? "run" : "skip"} ${planned.reason.code} (${planned.reason.text})`);

const SCORED = `[config]
threshold = 5
label = "x"

[[rules]]
name = "prep"
input = ["data/a.txt"]
output = ["prep.txt"]
shell = "cat {input} > {output}"

[[rules]]
name = "score"
input = ["prep.txt"]
output = ["score.txt"]
script = "scripts/score.py --t {config.threshold}"

[[rules]]
name = "report"
input = ["score.txt"]
output = ["report.txt"]
shell = "cp {input} {output}"
`;

describe("reasons with a checkpoint (§5.6, Decision 5)", () => {
  /** A workdir after one complete run of SCORED. */
  async function ranScored(body = SCORED): Promise<{ dir: string; pipeline: Pipeline }> {
    const dir = tempDir();
    writeFile(dir, "data/a.txt", "a\n");
    writeFile(dir, "scripts/score.py", "print('score')\n");
    const pipeline = await load(body, { dir });
    simulateRun(pipeline);
    return { dir, pipeline };
  }

  it("the first run's jobs have never completed; after it, everything is up to date", async () => {
    const dir = tempDir();
    writeFile(dir, "data/a.txt", "a\n");
    writeFile(dir, "scripts/score.py", "print('score')\n");
    const pipeline = await load(SCORED, { dir });
    expect(coded(planPipeline(pipeline, { checkpoint: openCheckpoint(dir).data }))).toEqual([
      "prep: run never-completed (never completed)",
      "score: run never-completed (never completed)",
      "report: run never-completed (never completed)",
    ]);
    simulateRun(pipeline);
    expect(coded(replan(await load(SCORED, { dir })))).toEqual(["prep: skip up-to-date (outputs up to date)", "score: skip up-to-date (outputs up to date)", "report: skip up-to-date (outputs up to date)"]);
  });

  it("a new rule has never completed; the recorded ones stay up to date", async () => {
    const { dir } = await ranScored();
    const plan = replan(await load(`${SCORED}\n[[rules]]\nname = "extra"\ninput = ["report.txt"]\noutput = ["extra.txt"]\nshell = "cp {input} {output}"\n`, { dir }));
    expect(coded(plan).slice(2)).toEqual(["report: skip up-to-date (outputs up to date)", "extra: run never-completed (never completed)"]);
  });

  it("an edited shell command is a rule change naming the field, and everything downstream follows", async () => {
    const { dir } = await ranScored();
    const plan = replan(await load(SCORED.replace("cat {input} > {output}", "sort {input} > {output}"), { dir }));
    expect(coded(plan)).toEqual(["prep: run rule-changed (rule definition changed: shell)", "score: run downstream (downstream of prep)", "report: run downstream (downstream of score)"]);
  });

  it("several changed fields are all named", async () => {
    const { dir } = await ranScored();
    const edited = SCORED.replace('shell = "cp {input} {output}"', 'shell = "cp -p {input} {output}"\nparams = { mode = "fast" }\nenvvars = { LC_ALL = "C" }');
    expect(coded(replan(await load(edited, { dir }))).at(-1)).toBe("report: run rule-changed (rule definition changed: envvars, params, shell)");
  });

  it("threads and memory are not part of the definition", async () => {
    const { dir } = await ranScored();
    const plan = replan(await load(SCORED.replace('shell = "cp {input} {output}"', 'shell = "cp {input} {output}"\nthreads = 8\nmemory = "16G"'), { dir }));
    expect(plan.counts.run).toBe(0);
  });

  it("an edited script file is reported apart from the rule", async () => {
    const { dir, pipeline } = await ranScored();
    writeFile(dir, "scripts/score.py", "print('better score')\n");
    expect(coded(replan(pipeline)).slice(1)).toEqual(["score: run script-changed (script file changed: scripts/score.py)", "report: run downstream (downstream of score)"]);
  });

  it("a changed input file names the file; touching it without changing it changes nothing", async () => {
    const { dir, pipeline } = await ranScored();
    const later = Date.now() / 1000 + 3600;
    utimesSync(join(dir, "data/a.txt"), later, later);
    // Newer than prep.txt now, but the same content: the checkpoint knows better than the mtime gate.
    expect(replan(pipeline).counts.run).toBe(0);
    writeFile(dir, "data/a.txt", "changed\n");
    expect(coded(replan(pipeline))).toEqual(["prep: run input-changed (input changed: data/a.txt)", "score: run downstream (downstream of prep)", "report: run downstream (downstream of score)"]);
  });

  it("inputs above the content-hash limit compare by size and time, so touching one counts", async () => {
    const dir = tempDir();
    writeFile(dir, "data/a.txt", "a\n");
    writeFile(dir, "scripts/score.py", "print('score')\n");
    const pipeline = await load(SCORED, { dir });
    const store = openCheckpoint(dir);
    const plan = planPipeline(pipeline, { checkpoint: store.data });
    for (const planned of plan.jobs) {
      for (const output of planned.job.output.paths) writeFile(dir, output, "x");
      store.record(planned.job.name, createJobRecord(planned.job, pipeline, COMPLETED, { hashLimit: 1 }));
    }
    store.compact();
    expect(readCheckpoint(dir)!.jobs.prep!.inputs[0]!.hash).toBeUndefined();
    const later = Date.now() / 1000 + 3600;
    utimesSync(join(dir, "data/a.txt"), later, later);
    expect(coded(replan(pipeline, { manifest: { hashLimit: 1 } }))[0]).toBe("prep: run input-changed (input changed: data/a.txt)");
  });

  it("a file added to a glob or a folder input, or removed from it, is an input change", async () => {
    const dir = tempDir();
    writeFile(dir, "data/a.txt", "a");
    writeFile(dir, "data/b.txt", "b");
    writeFile(dir, "index/part1", "1");
    const body = `[[rules]]\nname = "merge"\ninput = ["data/*.txt"]\noutput = ["merged.txt"]\nshell = "cat {input} > {output}"\n\n[[rules]]\nname = "pack"\ninput = ["index"]\noutput = ["index.tar"]\nshell = "tar cf {output} {input}"\n`;
    const pipeline = await load(body, { dir });
    simulateRun(pipeline);
    expect(replan(pipeline).counts.run).toBe(0);
    writeFile(dir, "data/c.txt", "c");
    writeFile(dir, "index/deeper/part2", "2");
    expect(coded(replan(pipeline))).toEqual(["merge: run input-changed (input changed: data/c.txt (added))", "pack: run input-changed (input changed: index/deeper/part2 (added))"]);
    simulateRun(pipeline);
    rmSync(join(dir, "data/a.txt"));
    expect(coded(replan(pipeline))[0]).toBe("merge: run input-changed (input changed: data/a.txt (removed))");
  });

  it("a changed config value names the key and re-runs only the rules that reference it", async () => {
    const { dir } = await ranScored();
    const plan = replan(await load(SCORED, { dir, overrides: { threshold: "7", label: "unused" } }));
    expect(coded(plan)).toEqual(["prep: skip up-to-date (outputs up to date)", "score: run config-changed (config key changed: threshold)", "report: run downstream (downstream of score)"]);
  });

  it("a config value reached through another key counts as a change of the key the rule names", async () => {
    const dir = tempDir();
    const body = `[config]\ngenome = "ref/{config.build}.fa"\nbuild = "hg38"\n\n[[rules]]\nname = "align"\noutput = ["a.bam"]\nshell = "bwa {config.genome} > {output}"\n`;
    simulateRun(await load(body, { dir }));
    expect(coded(replan(await load(body.replace("hg38", "hg19"), { dir })))).toEqual(["align: run config-changed (config key changed: genome)"]);
  });

  it("a missing output re-runs its job and what follows", async () => {
    const { dir, pipeline } = await ranScored();
    rmSync(join(dir, "score.txt"));
    expect(coded(replan(pipeline)).slice(1)).toEqual(["score: run outputs-missing (outputs missing: score.txt)", "report: run downstream (downstream of score)"]);
  });

  it("a job that failed in the last run runs again, and so does what was blocked behind it", async () => {
    const dir = tempDir();
    writeFile(dir, "data/a.txt", "a\n");
    writeFile(dir, "scripts/score.py", "print('score')\n");
    const pipeline = await load(SCORED, { dir });
    const store = simulateRun(pipeline, { fail: ["score"] });
    expect(store.data.jobs.score).toMatchObject({ status: "failed", exit_code: 1 });
    expect(coded(replan(pipeline))).toEqual(["prep: skip up-to-date (outputs up to date)", "score: run failed-before (failed in the last run)", "report: run never-completed (never completed)"]);
  });

  it("--rerun forces and a false when condition skips, checkpoint or not", async () => {
    const { dir } = await ranScored();
    const pipeline = await load(SCORED.replace('shell = "cp {input} {output}"', 'shell = "cp {input} {output}"\nwhen = "config.threshold > 10"'), { dir });
    expect(coded(replan(pipeline, { rerun: true }))).toEqual(["prep: run forced (forced (--rerun))", "score: run forced (forced (--rerun))", "report: skip condition-false (when condition false)"]);
  });

  it("a rebuilt reference re-runs the rules that use its config key", async () => {
    const dir = tempDir();
    const body = `[[references]]\nname = "genome_index"\nsource = "g.fa"\noutput = "g.fa.fai"\nbuild = "samtools faidx {source}"\n\n[[rules]]\nname = "call"\noutput = ["calls.vcf"]\nshell = "caller --fai {config.genome_index} > {output}"\n\n[[rules]]\nname = "other"\noutput = ["other.txt"]\nshell = "echo > {output}"\n`;
    const pipeline = await load(body, { dir });
    simulateRun(pipeline);
    expect(coded(replan(pipeline, { rebuiltReferences: ["genome_index"] }))).toEqual(["call: run input-changed (reference rebuilt: genome_index)", "other: skip up-to-date (outputs up to date)"]);
  });
});

describe("temporary outputs and tombstones (§5.7, Decision 4)", () => {
  const TEMPS = `[[rules]]
name = "unpack"
input = ["in.txt"]
output = ["unpacked.txt"]
shell = "cp {input} {output}"
temporary = true

[[rules]]
name = "trim"
input = ["unpacked.txt"]
output = ["trimmed.txt"]
shell = "cp {input} {output}"
temporary = true

[[rules]]
name = "count"
input = ["trimmed.txt"]
output = ["count.txt"]
shell = "wc -l {input} > {output}"

[[rules]]
name = "size"
input = ["trimmed.txt"]
output = ["size.txt"]
shell = "wc -c {input} > {output}"
`;

  /** A workdir after a complete run whose temporary outputs were then deleted and tombstoned. */
  async function ranAndCleaned(): Promise<{ dir: string; pipeline: Pipeline }> {
    const dir = tempDir();
    writeFile(dir, "in.txt", "data\n");
    const pipeline = await load(TEMPS, { dir });
    const store = simulateRun(pipeline);
    for (const [job, path] of [["unpack", "unpacked.txt"], ["trim", "trimmed.txt"]] as const) {
      rmSync(join(dir, path));
      store.tombstone(job, [path]);
    }
    store.compact();
    return { dir, pipeline };
  }

  it("deleted temporaries alone do not re-run anything", async () => {
    const { pipeline } = await ranAndCleaned();
    expect(coded(replan(pipeline))).toEqual([
      "unpack: skip up-to-date (up to date (temporary outputs removed))",
      "trim: skip up-to-date (up to date (temporary outputs removed))",
      "count: skip up-to-date (outputs up to date)",
      "size: skip up-to-date (outputs up to date)",
    ]);
  });

  it("a consumer that must run has its deleted inputs made again, up the chain; other consumers stay", async () => {
    const { pipeline } = await ranAndCleaned();
    const edited = await load(TEMPS.replace("wc -l {input}", "wc -w {input}"), { dir: pipeline.dir });
    expect(coded(replan(edited))).toEqual([
      "unpack: run upstream (upstream of trim)",
      "trim: run upstream (upstream of count)",
      "count: run rule-changed (rule definition changed: shell)",
      "size: skip up-to-date (outputs up to date)",
    ]);
  });

  it("an output deleted that was not tombstoned is missing", async () => {
    const { dir, pipeline } = await ranAndCleaned();
    rmSync(join(dir, "count.txt"));
    expect(coded(replan(pipeline)).slice(1, 3)).toEqual(["trim: run upstream (upstream of count)", "count: run outputs-missing (outputs missing: count.txt)"]);
  });
});

describe("--retry-failed / --resume-failed", () => {
  const WIDE = `[[sample_groups]]
name = "g"
samples = ["S1", "S2"]

[[rules]]
name = "trim"
input = ["raw/{sample}.fq"]
output = ["trimmed/{sample}.fq"]
shell = "cp {input} {output}"
temporary = true

[[rules]]
name = "align"
input = ["trimmed/{sample}.fq"]
output = ["aligned/{sample}.bam"]
shell = "cp {input} {output}"

[[rules]]
name = "merge"
input = ["aligned/S1.bam", "aligned/S2.bam"]
output = ["merged.bam"]
shell = "cat {input} > {output}"
`;

  it("runs only the failed jobs, what follows them and producers of missing inputs", async () => {
    const dir = tempDir();
    writeFile(dir, "raw/S1.fq", "1");
    writeFile(dir, "raw/S2.fq", "2");
    const pipeline = await load(WIDE, { dir });
    const store = simulateRun(pipeline, { fail: ["align_g_S2"] });
    rmSync(join(dir, "trimmed/S2.fq"));
    store.tombstone("trim_g_S2", ["trimmed/S2.fq"]);
    store.compact();
    const expected = [
      "trim_g_S1: skip not-selected (not selected (--retry-failed))",
      "trim_g_S2: run upstream (upstream of align_g_S2)",
      "align_g_S1: skip not-selected (not selected (--retry-failed))",
      "align_g_S2: run failed-before (failed in the last run)",
      "merge: run downstream (downstream of align_g_S2)",
    ];
    const plan = replan(pipeline, { retryFailed: true });
    expect(coded(plan)).toEqual(expected);
    expect(plan.counts).toEqual({ total: 5, run: 3, upToDate: 0, conditionFalse: 0, notSelected: 2 });
    expect(coded(replan(pipeline, { resumeFailed: true }))).toEqual(expected.map((line) => line.replace("--retry-failed", "--resume-failed")));
  });

  it("with nothing failed, nothing is selected", async () => {
    const dir = tempDir();
    writeFile(dir, "raw/S1.fq", "1");
    writeFile(dir, "raw/S2.fq", "2");
    const pipeline = await load(WIDE, { dir });
    simulateRun(pipeline);
    expect(replan(pipeline, { retryFailed: true }).counts).toMatchObject({ run: 0, notSelected: 5 });
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
