/**
 * `strand cluster submit|status|cancel` through the built command line: one job script per expanded job,
 * the `submit.sh` chaining of every scheduler (run against recording stand-ins of qsub/bsub/sbatch, and the
 * SLURM one against the real local cluster), profiles, dry runs, and status/cancel of real SLURM jobs.
 */
import { chmodSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { ensureSlurm, failWithoutSlurmWhenStrict } from "../support/slurm-cluster.js";
import { parseData, parseEnvelope, runStrand, tempFolder, type TempFolder } from "../support/strand-cli.js";

const slurm = await ensureSlurm();
failWithoutSlurmWhenStrict(slurm);

/** Two aligned samples merged into one file: merge must wait for both aligns. */
const PIPELINE = `[workflow]
name = "cluster-demo"

[[sample_groups]]
name = "cohort"
samples = ["S1", "S2"]

[[rules]]
name = "align"
input = ["raw/{sample}.fq"]
output = ["aligned/{sample}.txt"]
threads = 1
memory = "200M"
shell = "mkdir -p aligned && sleep 1 && echo {sample} > {output}"

[[rules]]
name = "merge"
expand_inputs = [{ pattern = "aligned/{sample}.txt", variables = { sample = "config.samples_list" } }]
output = ["merged/all.txt"]
shell = "mkdir -p merged && cat {input} > {output}"
[rules.resources]
time_limit = "30m"
gpu = 1
`;

const PROFILE = `[cluster]
backend = "pbs"
partition = "long"
account = "lab42"
walltime = "2h"
extra_args = ["-l place=scatter"]
`;

const folders: TempFolder[] = [];
afterAll(() => folders.forEach((folder) => folder.remove()));

function project(pipeline = PIPELINE): TempFolder {
  const folder = tempFolder({ "main.oxoflow": pipeline, "raw/S1.fq": "", "raw/S2.fq": "", "profiles/hpc.toml": PROFILE }, "strand-cluster-");
  folders.push(folder);
  return folder;
}

/** Recording stand-ins for a scheduler's submit program: each call logs its arguments and prints the next id. */
function fakeSubmitter(folder: TempFolder, program: string, answer: string): { env: Record<string, string>; calls: () => string[] } {
  const bin = folder.path("fake-bin");
  folder.write({
    [`fake-bin/${program}`]: `#!/bin/bash
n=$(cat "${bin}/count" 2>/dev/null || echo 100)
echo $((n + 1)) > "${bin}/count"
line=$(printf '[%s]' "$@")
if [ ! -t 0 ] && [ "${program}" = bsub ]; then line="$line <$(head -c 11)"; fi
echo "$line" >> "${bin}/calls.log"
id=$n
echo "${answer}"
`,
  });
  chmodSync(join(bin, program), 0o755);
  return { env: { PATH: `${bin}:${process.env.PATH}` }, calls: () => readFileSync(join(bin, "calls.log"), "utf8").trim().split("\n") };
}

describe("strand cluster submit", () => {
  it("writes one script per expanded job and says how to submit", async () => {
    const folder = project();
    const result = await runStrand(["cluster", "submit", ".", "-b", "slurm", "--queue", "debug", "-a", "lab42", "--extra-arg", "--qos=high"], { cwd: folder.dir });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      [
        "Wrote 3 SLURM job script(s) to cluster_scripts",
        "  align_cohort_S1.sh",
        "  align_cohort_S2.sh",
        "  merge.sh  (after align_cohort_S1, align_cohort_S2)",
        "Job logs go to logs/<job>.out and .err",
        "",
        "Submit a job:",
        "  sbatch cluster_scripts/align_cohort_S1.sh",
        "Some jobs need others to finish first: add --with-dependencies for a submit.sh that submits them in order.",
        "",
      ].join("\n"),
    );
    expect(readdirSync(folder.path("cluster_scripts")).sort()).toEqual(["align_cohort_S1.sh", "align_cohort_S2.sh", "merge.sh"]);
    expect(readFileSync(folder.path("cluster_scripts/merge.sh"), "utf8")).toBe(
      [
        "#!/bin/bash",
        // Named by rule and number: the queue shows names to everyone on the cluster, so no sample names.
        "#SBATCH --job-name=merge-3",
        "#SBATCH --cpus-per-task=1",
        "#SBATCH --gres=gpu:1",
        "#SBATCH --time=00:30:00",
        "#SBATCH --partition=debug",
        "#SBATCH --account=lab42",
        `#SBATCH --output=${folder.dir}/logs/merge.out`,
        `#SBATCH --error=${folder.dir}/logs/merge.err`,
        "#SBATCH --qos=high",
        "",
        "set -e",
        "",
        `mkdir -p '${folder.dir}/logs'`,
        `cd '${folder.dir}'`,
        "mkdir -p merged && cat aligned/S1.txt aligned/S2.txt > merged/all.txt",
        "",
      ].join("\n"),
    );
    expect(existsSync(folder.path("logs"))).toBe(true);
  });

  it("takes the backend and defaults from a profile's [cluster] table; flags and rule resources win", async () => {
    const folder = project();
    const result = await runStrand(["cluster", "submit", "--profile", "hpc", "-o", "pbs", "--walltime", "3h", "-t", "align"], { cwd: folder.dir });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Wrote 2 PBS job script\(s\) to pbs\n/);
    const script = readFileSync(folder.path("pbs/align_cohort_S2.sh"), "utf8");
    expect(script.split("\n").filter((line) => line.startsWith("#PBS"))).toEqual([
      "#PBS -N align-2",
      "#PBS -l nodes=1:ppn=1,mem=200M,walltime=03:00:00",
      "#PBS -q long",
      "#PBS -A lab42",
      `#PBS -o ${folder.dir}/logs/align_cohort_S2.out`,
      `#PBS -e ${folder.dir}/logs/align_cohort_S2.err`,
      "#PBS -l place=scatter",
    ]);
    expect(result.stdout).toContain("  qsub pbs/align_cohort_S1.sh\n");
  });

  it("prints the scripts without writing them under --dry-run, and describes them under --json", async () => {
    const folder = project();
    const dry = await runStrand(["cluster", "submit", ".", "-b", "sge", "--dry-run", "--with-dependencies"], { cwd: folder.dir });
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout).toContain("── cluster_scripts/merge.sh\n#!/bin/bash\n#$ -N merge-3\n#$ -S /bin/bash\n#$ -pe smp 1\n#$ -l gpu=1\n#$ -l h_rt=00:30:00\n");
    expect(dry.stdout).toContain("── cluster_scripts/submit.sh\n#!/bin/bash\n");
    expect(dry.stdout).toMatch(/\(dry run\) would write 3 SGE job script\(s\) to cluster_scripts and submit.sh\n$/);
    expect(existsSync(folder.path("cluster_scripts"))).toBe(false);

    const json = await runStrand(["cluster", "submit", ".", "-b", "lsf", "--json", "--with-dependencies"], { cwd: folder.dir });
    expect(json.exitCode).toBe(0);
    expect(parseEnvelope(json)).toMatchObject({ ok: true, command: "cluster submit", findings: [] });
    expect(parseData(json)).toEqual({
      workflow: "main.oxoflow",
      backend: "lsf",
      output_dir: "cluster_scripts",
      dry_run: false,
      jobs: [
        { name: "align_cohort_S1", script: "cluster_scripts/align_cohort_S1.sh", after: [] },
        { name: "align_cohort_S2", script: "cluster_scripts/align_cohort_S2.sh", after: [] },
        { name: "merge", script: "cluster_scripts/merge.sh", after: ["align_cohort_S1", "align_cohort_S2"] },
      ],
      submit_script: "cluster_scripts/submit.sh",
      log_folder: folder.path("logs"),
      warnings: [],
    });
  });

  it("refuses a missing or unknown scheduler with a usage error", async () => {
    const folder = project();
    const missing = await runStrand(["cluster", "submit", "."], { cwd: folder.dir });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("strand cluster: no scheduler given\n  hint: add -b slurm|pbs|sge|lsf, or set backend in the profile's [cluster] table\n");
    const unknown = await runStrand(["cluster", "submit", ".", "-b", "condor"], { cwd: folder.dir });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("strand cluster: unknown scheduler 'condor'\n  hint: use one of slurm, pbs, sge, lsf\n");
    const subcommand = await runStrand(["cluster", "launch"], { cwd: folder.dir });
    expect(subcommand.exitCode).toBe(2);
    expect(subcommand.stderr).toContain("unknown cluster subcommand 'launch'");
  });

  it("warns about a walltime it cannot read and uses one hour", async () => {
    const folder = project();
    const result = await runStrand(["cluster", "submit", ".", "-b", "slurm", "--walltime", "soon", "-t", "align_cohort_S1"], { cwd: folder.dir });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("warning: job align_cohort_S1: walltime 'soon' is neither a duration (30m, 4h, 2d) nor HH:MM:SS; using 1 hour\n");
    expect(readFileSync(folder.path("cluster_scripts/align_cohort_S1.sh"), "utf8")).toContain("#SBATCH --time=01:00:00\n");
  });
});

describe("submit.sh chains the jobs with each scheduler's dependencies", () => {
  const cases = [
    { backend: "slurm", program: "sbatch", answer: "${id};cluster", calls: ["[--parsable][align_cohort_S1.sh]", "[--parsable][align_cohort_S2.sh]", "[--parsable][--dependency=afterok:100:101][merge.sh]"] },
    { backend: "pbs", program: "qsub", answer: "${id}.pbs-head", calls: ["[align_cohort_S1.sh]", "[align_cohort_S2.sh]", "[-W][depend=afterok:100.pbs-head:101.pbs-head][merge.sh]"] },
    { backend: "sge", program: "qsub", answer: "${id}", calls: ["[-terse][align_cohort_S1.sh]", "[-terse][align_cohort_S2.sh]", "[-terse][-hold_jid][100,101][merge.sh]"] },
    { backend: "lsf", program: "bsub", answer: "Job <${id}> is submitted to default queue <normal>.", calls: ["[] <#!/bin/bash", "[] <#!/bin/bash", "[-w][done(100) && done(101)] <#!/bin/bash"] },
  ];

  for (const { backend, program, answer, calls } of cases) {
    it(`${backend}: ${program} in topological order with the captured ids`, async () => {
      const folder = project();
      const written = await runStrand(["cluster", "submit", ".", "-b", backend, "--with-dependencies"], { cwd: folder.dir });
      expect(written.exitCode).toBe(0);
      expect(written.stdout).toContain("Submit every job in dependency order:\n  bash cluster_scripts/submit.sh\n");
      const fake = fakeSubmitter(folder, program, answer);
      const run = await execa("bash", [folder.path("cluster_scripts/submit.sh")], { cwd: folder.dir, env: fake.env, reject: false });
      expect(run.stderr).toBe("");
      expect(run.exitCode).toBe(0);
      expect(fake.calls()).toEqual(calls);
      const ids = backend === "pbs" ? ["100.pbs-head", "101.pbs-head", "102.pbs-head"] : ["100", "101", "102"];
      expect(run.stdout).toBe(`align_cohort_S1 ${ids[0]}\nalign_cohort_S2 ${ids[1]}\nmerge ${ids[2]}`);
    });
  }

  it("stops at the first submission that fails", async () => {
    const folder = project();
    await runStrand(["cluster", "submit", ".", "-b", "slurm", "--with-dependencies"], { cwd: folder.dir });
    folder.write({ "fake-bin/sbatch": "#!/bin/bash\necho 'sbatch: error: invalid partition' >&2\nexit 1\n" });
    chmodSync(folder.path("fake-bin/sbatch"), 0o755);
    const run = await execa("bash", [folder.path("cluster_scripts/submit.sh")], { env: { PATH: `${folder.path("fake-bin")}:${process.env.PATH}` }, reject: false });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe("sbatch: error: invalid partition");
  });
});

describe.skipIf(!slurm)("strand cluster with a real SLURM cluster", () => {
  it("submit.sh runs the pipeline: merge waits for both aligns (afterok)", async () => {
    // The local cluster has no GPUs: a --gres request would be refused.
    const folder = project(PIPELINE.replace("gpu = 1\n", ""));
    const written = await runStrand(["cluster", "submit", ".", "-b", "slurm", "--with-dependencies"], { cwd: folder.dir });
    expect(written.exitCode).toBe(0);
    const run = await execa("bash", [folder.path("cluster_scripts/submit.sh")], { reject: false });
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    const ids = Object.fromEntries(run.stdout.split("\n").map((line) => line.split(" ") as [string, string]));
    const dependency = await execa("scontrol", ["-o", "show", "job", ids.merge!]);
    expect(String(dependency.stdout)).toMatch(new RegExp(`Dependency=afterok:${ids.align_cohort_S1}\\S*afterok:${ids.align_cohort_S2}`));
    const deadline = Date.now() + 60_000;
    while (!existsSync(folder.path("merged/all.txt")) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(readFileSync(folder.path("merged/all.txt"), "utf8")).toBe("S1\nS2\n");
    expect(readFileSync(folder.path("logs/merge.err"), "utf8")).toBe("");
  });

  it("status and cancel of real jobs", async () => {
    const folder = project();
    const id = String((await execa("sbatch", ["--parsable", "-o", "/dev/null", "--wrap", "sleep 300"], { cwd: folder.dir })).stdout).trim();
    const before = await runStrand(["cluster", "status", "-b", "slurm", id, "999999"]);
    expect(before.exitCode).toBe(0);
    expect(before.stdout).toMatch(new RegExp(`^${id} +(pending|running)  \\((PENDING|RUNNING)\\)\\n999999 +unknown  \\(not known to the scheduler\\)\\n$`));

    const cancel = await runStrand(["cluster", "cancel", "-b", "slurm", id]);
    expect(cancel.exitCode).toBe(0);
    expect(cancel.stdout).toBe(`Cancel sent to SLURM for 1 job(s): ${id}\n`);
    // SLURM shows a cancelled job as CG (completing) until its processes are gone: it leaves the queue soon after.
    await expect.poll(async () => String((await execa("squeue", ["-h", "-j", id], { reject: false })).stdout).trim(), { timeout: 15_000, interval: 250 }).toBe("");

    const after = await runStrand(["cluster", "status", "-b", "slurm", id, "--json"]);
    expect(parseEnvelope(after)).toMatchObject({ ok: true, command: "cluster status", data: { backend: "slurm", jobs: [{ id, state: "cancelled", native: "CANCELLED" }] } });
  });
});

describe("strand cluster status without the scheduler's programs", () => {
  it("says the commands are not installed", async () => {
    const result = await runStrand(["cluster", "status", "-b", "lsf", "1"]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("bjobs was not found: the scheduler's commands are not installed here");
  });

  it("needs job ids", async () => {
    const result = await runStrand(["cluster", "cancel", "-b", "slurm"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("cluster cancel needs at least one job id");
  });
});
