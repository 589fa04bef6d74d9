/**
 * `strand dry-run`: the plan text ("N jobs would execute", numbered job lines with reasons), the JSON plan,
 * target selection, sample selection, config overrides in all their forms, and profiles.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPipeline } from "../../src/engine/format/load.js";
import { openCheckpoint } from "../../src/engine/run/checkpoint/checkpoint.js";
import { configSnapshot, createJobRecord } from "../../src/engine/run/checkpoint/fingerprint.js";
import { planPipeline } from "../../src/engine/run/plan.js";
import { CHAIN, COHORT, CYCLE, UNDEFINED_CONFIG } from "../support/cli-pipelines.js";
import { parseData, parseEnvelope, runStrand, stackTraceLines, tempFolder, type TempFolder } from "../support/strand-cli.js";

interface PlanJson {
  schema_version: number;
  workflow: string;
  total_jobs: number;
  would_run: number;
  up_to_date: number;
  skipped: number;
  not_selected: number;
  checkpoint: { path: string; found: boolean; completed: number; failed: number };
  execution_order: string[];
  plan: {
    name: string;
    rule: string;
    status: "run" | "skip";
    reason: { code: string; text: string };
    level: number;
    threads: number;
    memory: string | null;
    environment: { kind: string; spec: string };
    command: string | null;
    error: unknown;
    inputs: string[];
    outputs: string[];
    bindings: Record<string, string>;
  }[];
  sample_groups: { name: string; samples: string[] }[];
  pairs: unknown[];
}

/** The `  i. name  [status]` lines of a text plan, as [number, name, status]. */
function jobLines(text: string): [number, string, string][] {
  return [...text.matchAll(/^ {2}(\d+)\. (\S+) {2}\[(.+)\]$/gm)].map((match) => [Number(match[1]), match[2]!, match[3]!]);
}

let folder: TempFolder;
beforeAll(() => {
  folder = tempFolder({
    "main.oxoflow": COHORT,
    "chain.oxoflow": CHAIN,
    "broken.oxoflow": UNDEFINED_CONFIG,
    "cycle.oxoflow": CYCLE,
    "subset.txt": "S3\n",
    "sheet.tsv": "name\tsamples\ntrial\tT1,T2\n",
    "profiles/fast.toml": '[config]\ngenome = "from-profile"\nextra_key = "from-profile"\n\n[defaults]\nthreads = 6\n',
  });
});
afterAll(() => folder.remove());

const dryRun = (...args: string[]) => runStrand(["dry-run", ...args], { cwd: folder.dir });
const planOf = async (...args: string[]) => {
  const result = await dryRun(...args, "--json");
  expect(result.exitCode, result.stderr).toBe(0);
  return parseData<PlanJson>(result);
};
const commandOf = (body: PlanJson, name: string) => body.plan.find((job) => job.name === name)?.command;

describe.concurrent("strand dry-run (text)", () => {
  it("prints 'N jobs would execute' and numbered job lines with their reason", async () => {
    const result = await dryRun("main.oxoflow");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("Plan for cohort-demo (main.oxoflow): 5 jobs in 3 levels; 3 samples in 1 group, 0 pairs");
    expect(result.stdout).toMatch(/^4 jobs would execute; 1 skipped \(when condition false\)$/m);
    expect(jobLines(result.stdout)).toEqual([
      [1, "align_cohort_S1", "run: never completed"],
      [2, "align_cohort_S2", "run: never completed"],
      [3, "align_cohort_S3", "run: never completed"],
      [4, "merge", "run: never completed"],
      [5, "report", "skip: when condition false"],
    ]);
    expect(result.stdout).toContain("command: bwa mem -M hg38 raw/S1.fq > aligned/S1.bam");
    expect(result.stdout).toContain("command: samtools merge merged/cohort.bam aligned/S1.bam aligned/S2.bam aligned/S3.bam");
    expect(result.stdout).toMatch(/threads=1 {2}env=system/);
    expect(result.stdout).toContain("outputs: aligned/S1.bam");
  });

  it("the job lines match the community acceptance scripts' pattern", async () => {
    const result = await dryRun("chain.oxoflow");
    expect(result.stdout).toMatch(/would execute/);
    for (const rule of ["generate", "transform", "summarise"]) expect(result.stdout).toMatch(new RegExp(`^ {2}[0-9]+\\. ${rule}[^ ]*( {2}\\[run.*)? *$`, "m"));
    const order = jobLines(result.stdout).map(([, name]) => name);
    expect(order).toEqual(["generate", "transform", "summarise"]);
  });

  it("--quiet keeps the job lines and drops the details", async () => {
    const result = await dryRun("main.oxoflow", "-q");
    expect(jobLines(result.stdout)).toHaveLength(5);
    expect(result.stdout).not.toContain("command:");
  });

  it("--rerun forces every job", async () => {
    const result = await dryRun("chain.oxoflow", "--rerun", "-q");
    expect(jobLines(result.stdout).map(([, , status]) => status)).toEqual(["run: forced (--rerun)", "run: forced (--rerun)", "run: forced (--rerun)"]);
  });

  it("an undefined config key stops the plan (exit 1, E005)", async () => {
    const result = await dryRun("broken.oxoflow");
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("[E005]");
    expect(result.stderr).toContain("config.missing");
    expect(stackTraceLines(result.stderr)).toEqual([]);
  });

  it("a cycle stops the plan (exit 1)", async () => {
    const result = await dryRun("cycle.oxoflow");
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("cycle detected in workflow DAG");
  });
});

describe.concurrent("strand dry-run --json", () => {
  it("returns the plan with a reason for every job", async () => {
    const body = await planOf("main.oxoflow");
    expect(body.schema_version).toBe(1);
    expect(body.workflow).toBe("main.oxoflow");
    expect(body).toMatchObject({ total_jobs: 5, would_run: 4, skipped: 1, up_to_date: 0 });
    expect(body.execution_order).toEqual(["align_cohort_S1", "align_cohort_S2", "align_cohort_S3", "merge"]);
    expect(body.plan.map((job) => [job.name, job.status, job.reason.code])).toEqual([
      ["align_cohort_S1", "run", "never-completed"],
      ["align_cohort_S2", "run", "never-completed"],
      ["align_cohort_S3", "run", "never-completed"],
      ["merge", "run", "never-completed"],
      ["report", "skip", "condition-false"],
    ]);
    for (const job of body.plan) expect(job.reason.text).toEqual(expect.any(String));
    expect(body.plan[0]).toMatchObject({
      rule: "align",
      level: 0,
      threads: 1,
      memory: null,
      environment: { kind: "system", spec: "" },
      command: "bwa mem -M hg38 raw/S1.fq > aligned/S1.bam",
      error: null,
      inputs: ["raw/S1.fq"],
      outputs: ["aligned/S1.bam"],
      bindings: { group: "cohort", sample: "S1" },
    });
    expect(body.plan.find((job) => job.name === "merge")?.inputs).toEqual(["aligned/S1.bam", "aligned/S2.bam", "aligned/S3.bam"]);
    expect(body.sample_groups).toEqual([{ name: "cohort", samples: ["S1", "S2", "S3"], metadata: {} }]);
    expect(body.pairs).toEqual([]);
  });

  it("-t selects rules by name prefix plus everything upstream", async () => {
    const merge = await planOf("main.oxoflow", "-t", "merge");
    expect(merge.plan.map((job) => job.name)).toEqual(["align_cohort_S1", "align_cohort_S2", "align_cohort_S3", "merge"]);
    const prefix = await planOf("main.oxoflow", "-t", "align_cohort_S2");
    expect(prefix.plan.map((job) => job.name)).toEqual(["align_cohort_S2"]);
    const byPrefix = await planOf("main.oxoflow", "--target", "ali");
    expect(byPrefix.plan.map((job) => job.name)).toEqual(["align_cohort_S1", "align_cohort_S2", "align_cohort_S3"]);
  });

  it("-t with no matching rule fails (exit 1) and lists the rules", async () => {
    const result = await dryRun("main.oxoflow", "-t", "nothing");
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("target 'nothing' matches no rule");
    expect(result.stderr).toContain("align, merge, report");
  });
});

describe.concurrent("strand dry-run --samples", () => {
  it("first:1 keeps the first sample", async () => {
    const body = await planOf("main.oxoflow", "--samples", "first:1");
    expect(body.plan.map((job) => job.name)).toEqual(["align_cohort_S1", "merge", "report"]);
    expect(commandOf(body, "merge")).toBe("samtools merge merged/cohort.bam aligned/S1.bam");
    const text = await dryRun("main.oxoflow", "--samples", "first:1");
    expect(text.stdout).toMatch(/2 jobs would execute/);
  });

  it("S1,S3 keeps exactly those samples", async () => {
    const body = await planOf("main.oxoflow", "--samples", "S1,S3");
    expect(body.plan.map((job) => job.name)).toEqual(["align_cohort_S1", "align_cohort_S3", "merge", "report"]);
    expect(commandOf(body, "merge")).toBe("samtools merge merged/cohort.bam aligned/S1.bam aligned/S3.bam");
  });

  it("@file reads the samples from a file", async () => {
    const body = await planOf("main.oxoflow", "--samples", "@subset.txt");
    expect(body.plan.filter((job) => job.rule === "align").map((job) => job.bindings.sample)).toEqual(["S3"]);
    expect(commandOf(body, "merge")).toBe("samtools merge merged/cohort.bam aligned/S3.bam");
  });

  it("@sheet.tsv replaces the groups with the samplesheet's", async () => {
    const body = await planOf("main.oxoflow", "--samples", "@sheet.tsv");
    expect(body.sample_groups.map((group) => [group.name, group.samples])).toEqual([["trial", ["T1", "T2"]]]);
    expect(body.plan.map((job) => job.name)).toEqual(["align_trial_T1", "align_trial_T2", "merge", "report"]);
  });

  it("an unknown sample name is a usage error (exit 2) naming it", async () => {
    const result = await dryRun("main.oxoflow", "--samples", "S1,S9");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("S9");
  });
});

describe.concurrent("strand dry-run config overrides", () => {
  it("a trailing KEY=VALUE sets a config value", async () => {
    const body = await planOf("main.oxoflow", "genome=mm10");
    expect(commandOf(body, "align_cohort_S1")).toBe("bwa mem -M mm10 raw/S1.fq > aligned/S1.bam");
  });

  it("a trailing KEY=VALUE can switch a when condition", async () => {
    const body = await planOf("main.oxoflow", "make_report=true");
    expect(body.plan.find((job) => job.name === "report")).toMatchObject({ status: "run", reason: { code: "never-completed" } });
  });

  it("--arg KEY=VALUE sets a value and wins over a trailing KEY=VALUE", async () => {
    const alone = await planOf("main.oxoflow", "--arg", "genome=ce11");
    expect(commandOf(alone, "align_cohort_S1")).toContain(" ce11 ");
    const both = await planOf("main.oxoflow", "genome=mm10", "--arg", "genome=ce11");
    expect(commandOf(both, "align_cohort_S1")).toContain(" ce11 ");
  });

  it("--arg may set a key the pipeline does not declare", async () => {
    const body = await planOf("main.oxoflow", "--arg", "brand_new=1");
    expect(body.plan).toHaveLength(5);
  });

  it("--KEY VALUE and --KEY=VALUE work for keys declared in [config]", async () => {
    const spaced = await planOf("main.oxoflow", "--genome", "dm6");
    expect(commandOf(spaced, "align_cohort_S1")).toBe("bwa mem -M dm6 raw/S1.fq > aligned/S1.bam");
    const joined = await planOf("main.oxoflow", "--genome=danRer11");
    expect(commandOf(joined, "align_cohort_S1")).toContain(" danRer11 ");
  });

  it("a bare --KEY for a declared key means true", async () => {
    const body = await planOf("main.oxoflow", "--make_report");
    expect(body.plan.find((job) => job.name === "report")?.status).toBe("run");
  });

  it("an unknown --bogus x is a usage error (exit 2) that names it", async () => {
    const result = await dryRun("main.oxoflow", "--bogus", "x");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("unknown option --bogus");
    expect(result.stderr).toContain("--arg bogus=VALUE");
    expect(result.stdout).toBe("");
    expect(stackTraceLines(result.stderr)).toEqual([]);
  });

  it("a misspelt option is a usage error that suggests the real one", async () => {
    const result = await dryRun("main.oxoflow", "--sample", "S1");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("unknown option --sample");
    expect(result.stderr).toContain("did you mean --samples?");
  });
});

describe.concurrent("strand dry-run --profile", () => {
  it("fills config keys the pipeline lacks and [defaults] from profiles/NAME.toml", async () => {
    const body = await planOf("main.oxoflow", "--profile", "fast");
    // profile_mode "fill" (the default): the pipeline's own genome wins.
    expect(commandOf(body, "align_cohort_S1")).toBe("bwa mem -M hg38 raw/S1.fq > aligned/S1.bam");
    expect(body.plan.every((job) => job.threads === 6)).toBe(true);
    const text = await dryRun("main.oxoflow", "--profile", "fast");
    expect(text.stdout).toMatch(/threads=6/);
  });

  it("profile_mode = override lets the profile replace config values", async () => {
    folder.write({ "override.oxoflow": COHORT.replace('author = "Test Author"', 'author = "Test Author"\nprofile_mode = "override"') });
    const body = await planOf("override.oxoflow", "--profile", "fast");
    expect(commandOf(body, "align_cohort_S1")).toBe("bwa mem -M from-profile raw/S1.fq > aligned/S1.bam");
  });

  it("an unknown profile fails (exit 1) and lists the profiles there are", async () => {
    const result = await dryRun("main.oxoflow", "--profile", "nope");
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("profile 'nope' not found");
    expect(result.stderr).toContain("fast");
  });
});

/**
 * A workdir where CHAIN ran once, as a run records it: every job's outputs written and a record per job
 * through the checkpoint store; `fail` jobs are recorded as failed and what follows them is not run.
 */
async function ranChain(fail: string[] = []): Promise<TempFolder> {
  const workdir = tempFolder({ "chain.oxoflow": CHAIN });
  const pipeline = await loadPipeline(workdir.path("chain.oxoflow"));
  const store = openCheckpoint(pipeline.dir, { workflowPath: pipeline.path });
  let blocked = false;
  for (const planned of planPipeline(pipeline, { checkpoint: store.data }).jobs) {
    if (blocked) break;
    const failed = fail.includes(planned.job.name);
    if (!failed) workdir.write(Object.fromEntries(planned.job.output.paths.map((path) => [path, `made by ${planned.job.name}\n`])));
    store.record(planned.job.name, createJobRecord(planned.job, pipeline, { status: failed ? "failed" : "completed", exit_code: failed ? 1 : 0, wall_time_secs: 0.1, retries: 0, command: "true", stderr_tail: "" }));
    blocked = failed;
  }
  store.setConfigSnapshot(configSnapshot(pipeline));
  store.compact();
  return workdir;
}

describe.concurrent("strand dry-run with a checkpoint (Decision 5)", () => {
  const dryRunIn = (workdir: TempFolder, ...args: string[]) => runStrand(["dry-run", "chain.oxoflow", ...args], { cwd: workdir.dir });

  it("reads .strand/checkpoint.json: recorded jobs are up to date, a changed config key is named", async () => {
    const workdir = await ranChain();
    try {
      const same = await dryRunIn(workdir, "-q");
      expect(same.stdout).toContain("Checkpoint .strand/checkpoint.json: 3 jobs completed, 0 failed");
      expect(jobLines(same.stdout).map(([, name, status]) => `${name} ${status}`)).toEqual(["generate skip: outputs up to date", "transform skip: outputs up to date", "summarise skip: outputs up to date"]);

      const changed = await dryRunIn(workdir, "-q", "greeting=bye");
      expect(changed.stdout).toMatch(/^3 jobs would execute$/m);
      expect(jobLines(changed.stdout).map(([, name, status]) => `${name} ${status}`)).toEqual([
        "generate run: config key changed: greeting",
        "transform run: downstream of generate",
        "summarise run: downstream of transform",
      ]);
      const body = parseData<PlanJson>(await dryRunIn(workdir, "--json", "greeting=bye"));
      expect(body.checkpoint).toEqual({ path: ".strand/checkpoint.json", found: true, completed: 3, failed: 0 });
      expect(body.plan.map((job) => [job.name, job.status, job.reason])).toEqual([
        ["generate", "run", { code: "config-changed", text: "config key changed: greeting" }],
        ["transform", "run", { code: "downstream", text: "downstream of generate" }],
        ["summarise", "run", { code: "downstream", text: "downstream of transform" }],
      ]);
    } finally {
      workdir.remove();
    }
  });

  it("names an edited rule and a changed input file", async () => {
    const workdir = await ranChain();
    try {
      workdir.write({ "chain.oxoflow": CHAIN.replace("wc -c {input[0]}", "wc -m {input[0]}"), "data/a.txt": "edited by hand\n" });
      const body = parseData<PlanJson>(await dryRunIn(workdir, "--json"));
      expect(body.plan.map((job) => [job.name, job.reason.code, job.reason.text])).toEqual([
        ["generate", "up-to-date", "outputs up to date"],
        ["transform", "input-changed", "input changed: data/a.txt"],
        ["summarise", "rule-changed", "rule definition changed: shell"],
      ]);
    } finally {
      workdir.remove();
    }
  });

  it("--retry-failed plans the failed job and what it blocked; JSON counts what was not selected", async () => {
    const workdir = await ranChain(["transform"]);
    try {
      const text = await dryRunIn(workdir, "--retry-failed", "-q");
      expect(text.stdout).toContain("Checkpoint .strand/checkpoint.json: 1 job completed, 1 failed");
      expect(text.stdout).toMatch(/^2 jobs would execute; 1 not selected$/m);
      expect(jobLines(text.stdout).map(([, name, status]) => `${name} ${status}`)).toEqual([
        "generate skip: not selected (--retry-failed)",
        "transform run: failed in the last run",
        "summarise run: downstream of transform",
      ]);
      const body = parseData<PlanJson>(await dryRunIn(workdir, "--json"));
      expect(body.checkpoint).toMatchObject({ completed: 1, failed: 1 });
      expect(body.plan.map((job) => job.reason.code)).toEqual(["up-to-date", "failed-before", "never-completed"]);
    } finally {
      workdir.remove();
    }
  });

  it("an unreadable checkpoint is a warning; dry-run leaves it where it is and writes nothing", async () => {
    const workdir = tempFolder({ "chain.oxoflow": CHAIN, ".strand/checkpoint.json": "{ torn" });
    try {
      const result = await dryRunIn(workdir, "-q");
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain("warning [CHECKPOINT] .strand/checkpoint.json is unreadable");
      expect(result.stderr).toContain("a run would set it aside");
      expect(jobLines(result.stdout).map(([, , status]) => status)).toEqual(["run: never completed", "run: never completed", "run: never completed"]);
      expect(readdirSync(join(workdir.dir, ".strand"))).toEqual(["checkpoint.json"]);
      expect(readFileSync(workdir.path(".strand/checkpoint.json"), "utf8")).toBe("{ torn");
      const envelope = parseEnvelope<PlanJson>(await dryRunIn(workdir, "--json"));
      expect(envelope).toMatchObject({ ok: true, command: "dry-run" });
      expect(envelope.data.checkpoint).toEqual({ path: ".strand/checkpoint.json", found: true, completed: 0, failed: 0 });
      expect(envelope.findings).toEqual([expect.objectContaining({ code: "CHECKPOINT", severity: "warning" })]);
    } finally {
      workdir.remove();
    }
  });

  it("without a checkpoint, JSON says so and nothing is created", async () => {
    const workdir = tempFolder({ "chain.oxoflow": CHAIN });
    try {
      const body = parseData<PlanJson>(await dryRunIn(workdir, "--json"));
      expect(body.checkpoint).toEqual({ path: ".strand/checkpoint.json", found: false, completed: 0, failed: 0 });
      expect(existsSync(workdir.path(".strand"))).toBe(false);
    } finally {
      workdir.remove();
    }
  });
});
