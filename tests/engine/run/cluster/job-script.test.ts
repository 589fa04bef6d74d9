/**
 * Job scripts per scheduler (§5.10): exact directive text for SLURM, PBS, SGE and LSF, GPU requests,
 * walltime forms (durations, colon forms, unreadable ones), and the script around the directives.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { jobDirectives, renderJobScript, type JobScriptRequest } from "../../../../src/engine/run/cluster/job-script.js";

const BASE: JobScriptRequest = {
  name: "align_S1",
  jobName: "strand-r1-7",
  threads: 8,
  memory: "16G",
  cwd: "/data/project",
  command: "bwa mem ref.fa S1.fq > S1.sam",
  stdoutPath: "/data/project/.strand/runs/r1/logs/align_S1.out",
  stderrPath: "/data/project/.strand/runs/r1/logs/align_S1.err",
  cluster: { partition: "short", account: "lab42", walltime: "2h", extra_args: ["--qos=high", "--constraint=avx2"] },
};

const OUT = BASE.stdoutPath;
const ERR = BASE.stderrPath;

describe("SLURM directives", () => {
  it("writes every directive in the specified order", () => {
    expect(jobDirectives("slurm", BASE)).toEqual([
      "#SBATCH --job-name=strand-r1-7",
      "#SBATCH --cpus-per-task=8",
      "#SBATCH --mem=16G",
      "#SBATCH --time=02:00:00",
      "#SBATCH --partition=short",
      "#SBATCH --account=lab42",
      `#SBATCH --output=${OUT}`,
      `#SBATCH --error=${ERR}`,
      "#SBATCH --qos=high",
      "#SBATCH --constraint=avx2",
    ]);
  });

  it("leaves out what the job does not set", () => {
    expect(jobDirectives("slurm", { ...BASE, threads: 1, memory: undefined, cluster: undefined })).toEqual([
      "#SBATCH --job-name=strand-r1-7",
      "#SBATCH --cpus-per-task=1",
      `#SBATCH --output=${OUT}`,
      `#SBATCH --error=${ERR}`,
    ]);
  });

  it("asks for GPUs from gpu_spec (count, model, memory per GPU) or from gpu", () => {
    const gres = (cluster: JobScriptRequest["cluster"]) => jobDirectives("slurm", { ...BASE, memory: undefined, cluster }).filter((line) => /gres|mem-per-gpu/.test(line));
    expect(gres({ gpu: 2, extra_args: [] })).toEqual(["#SBATCH --gres=gpu:2"]);
    expect(gres({ gpu_spec: { count: 4 }, extra_args: [] })).toEqual(["#SBATCH --gres=gpu:4"]);
    expect(gres({ gpu_spec: { count: 2, model: "a100" }, extra_args: [] })).toEqual(["#SBATCH --gres=gpu:a100:2"]);
    expect(gres({ gpu_spec: { count: 2, model: "a100", memory_gb: 40 }, extra_args: [] })).toEqual(["#SBATCH --gres=gpu:a100:2", "#SBATCH --mem-per-gpu=40G"]);
    expect(gres({ gpu: 3, gpu_spec: { model: "v100" }, extra_args: [] })).toEqual(["#SBATCH --gres=gpu:v100:3"]);
    expect(gres({ gpu_spec: { memory_gb: 16 }, extra_args: [] })).toEqual(["#SBATCH --gres=gpu:1", "#SBATCH --mem-per-gpu=16G"]);
    expect(gres({ gpu: 0, extra_args: [] })).toEqual([]);
  });

  it("passes colon walltimes through and renders durations as HH:MM:SS or D-HH:MM:SS", () => {
    const time = (walltime: string) => jobDirectives("slurm", { ...BASE, cluster: { walltime, extra_args: [] } }).find((line) => line.includes("--time"));
    expect(time("04:00:00")).toBe("#SBATCH --time=04:00:00");
    expect(time("1-00:00:00")).toBe("#SBATCH --time=1-00:00:00");
    expect(time("30m")).toBe("#SBATCH --time=00:30:00");
    expect(time("36h")).toBe("#SBATCH --time=1-12:00:00");
    expect(time("2d")).toBe("#SBATCH --time=2-00:00:00");
  });

  it("uses one hour, with a warning, for a walltime it cannot read", () => {
    const warnings: string[] = [];
    const lines = jobDirectives("slurm", { ...BASE, cluster: { walltime: "a while", extra_args: [] } }, warnings);
    expect(lines).toContain("#SBATCH --time=01:00:00");
    expect(warnings).toEqual(["job align_S1: walltime 'a while' is neither a duration (30m, 4h, 2d) nor HH:MM:SS; using 1 hour"]);
  });
});

describe("PBS directives", () => {
  it("joins the resources into one -l line", () => {
    expect(jobDirectives("pbs", BASE)).toEqual([
      "#PBS -N strand-r1-7",
      "#PBS -l nodes=1:ppn=8,mem=16G,walltime=02:00:00",
      "#PBS -q short",
      "#PBS -A lab42",
      `#PBS -o ${OUT}`,
      `#PBS -e ${ERR}`,
      "#PBS --qos=high",
      "#PBS --constraint=avx2",
    ]);
  });

  it("adds gpu= to the resources and writes a GPU model as a comment", () => {
    expect(jobDirectives("pbs", { ...BASE, cluster: { gpu_spec: { count: 2, model: "a100" }, walltime: "36h", extra_args: [] } })).toEqual([
      "#PBS -N strand-r1-7",
      "#PBS -l nodes=1:ppn=8,mem=16G,gpu=2,walltime=36:00:00",
      "# GPU model requested: a100",
      `#PBS -o ${OUT}`,
      `#PBS -e ${ERR}`,
    ]);
  });

  it("passes HH:MM:SS through and turns a day form into hours (PBS has no day field)", () => {
    const line = (walltime: string) => jobDirectives("pbs", { ...BASE, cluster: { walltime, extra_args: [] } })[1];
    expect(line("04:00:00")).toBe("#PBS -l nodes=1:ppn=8,mem=16G,walltime=04:00:00");
    expect(line("1-12:00:00")).toBe("#PBS -l nodes=1:ppn=8,mem=16G,walltime=36:00:00");
    expect(line("bogus")).toBe("#PBS -l nodes=1:ppn=8,mem=16G,walltime=01:00:00");
  });
});

describe("SGE directives", () => {
  it("writes separate -l lines and no account", () => {
    expect(jobDirectives("sge", { ...BASE, cluster: { ...BASE.cluster!, gpu: 1 } })).toEqual([
      "#$ -N strand-r1-7",
      "#$ -S /bin/bash",
      "#$ -pe smp 8",
      "#$ -l h_vmem=16G",
      "#$ -l gpu=1",
      "#$ -l h_rt=02:00:00",
      "#$ -q short",
      `#$ -o ${OUT}`,
      `#$ -e ${ERR}`,
      "#$ --qos=high",
      "#$ --constraint=avx2",
    ]);
  });
});

describe("LSF directives", () => {
  it("writes -W in minutes and no account", () => {
    expect(jobDirectives("lsf", { ...BASE, cluster: { ...BASE.cluster!, gpu_spec: { count: 2, model: "a100" } } })).toEqual([
      "#BSUB -J strand-r1-7",
      "#BSUB -n 8",
      "#BSUB -M 16G",
      '#BSUB -gpu "num=2"',
      "#BSUB -W 02:00",
      "#BSUB -q short",
      `#BSUB -o ${OUT}`,
      `#BSUB -e ${ERR}`,
      "#BSUB --qos=high",
      "#BSUB --constraint=avx2",
    ]);
  });

  it("rounds minutes up, and writes MM under one hour", () => {
    const limit = (walltime: string) => jobDirectives("lsf", { ...BASE, cluster: { walltime, extra_args: [] } }).find((line) => line.startsWith("#BSUB -W"));
    expect(limit("45m")).toBe("#BSUB -W 45");
    expect(limit("90s")).toBe("#BSUB -W 2");
    expect(limit("00:59:30")).toBe("#BSUB -W 01:00");
    expect(limit("1-00:00:00")).toBe("#BSUB -W 24:00");
    expect(limit("4:30")).toBe("#BSUB -W 04:30");
  });
});

describe("the script", () => {
  it("is shebang, directives, blank, set -e, blank, log folders, cd, command", () => {
    const { text, warnings } = renderJobScript("slurm", { ...BASE, cluster: undefined, stderrPath: "/logs/other/align_S1.err" });
    expect(warnings).toEqual([]);
    expect(text).toBe(
      [
        "#!/bin/bash",
        "#SBATCH --job-name=strand-r1-7",
        "#SBATCH --cpus-per-task=8",
        "#SBATCH --mem=16G",
        `#SBATCH --output=${OUT}`,
        "#SBATCH --error=/logs/other/align_S1.err",
        "",
        "set -e",
        "",
        "mkdir -p '/data/project/.strand/runs/r1/logs' '/logs/other'",
        "cd '/data/project'",
        "bwa mem ref.fa S1.fq > S1.sam",
        "",
      ].join("\n"),
    );
  });

  it("quotes the folder for the shell and stops when the folder is missing", async () => {
    const { text } = renderJobScript("slurm", { ...BASE, cwd: "/nonexistent/it's here", stdoutPath: "/tmp/strand-js/o.out", stderrPath: "/tmp/strand-js/o.err", command: "echo first\necho second" });
    expect(text).toContain("cd '/nonexistent/it'\\''s here'\necho first\necho second\n");
    const result = await execa("bash", ["-c", text], { reject: false });
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout).toBe("");
  });
});

describe("the script of a shared service's job (a job sandbox is set)", () => {
  const SANDBOX = ["/usr/bin/bwrap", "--ro-bind", "/", "/", "--"];
  const LOGS = "/data/project/.strand/runs/r1/jobs/align_S1";
  const request: JobScriptRequest = {
    ...BASE,
    stdoutPath: `${LOGS}/stdout.log`,
    stderrPath: `${LOGS}/stderr.log`,
    sandbox: SANDBOX,
    limits: ["ulimit -S -H -u 64"],
    environment: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/data/project/.strand/home", BASH_ENV: "/data/project/evil.sh", SLURM_JOB_ID: "1", LD_PRELOAD: "/data/project/evil.so", CUDA_VISIBLE_DEVICES: "0", "NOT-A-NAME": "x", QUOTED: "it's" },
  };

  it("sends the scheduler's own output to /dev/null, starts with no environment of the submitter's, and opens the logs inside the sandbox", () => {
    const { text } = renderJobScript("slurm", request);
    const inner = ["ulimit -S -H -u 64", "set -e", `mkdir -p '${LOGS}'`, `exec >>'${LOGS}/stdout.log' 2>>'${LOGS}/stderr.log'`, "cd '/data/project'", "bwa mem ref.fa S1.fq > S1.sam"].join("\n");
    expect(text).toBe(
      [
        "#!/bin/bash",
        "#SBATCH --job-name=strand-r1-7",
        "#SBATCH --cpus-per-task=8",
        "#SBATCH --mem=16G",
        "#SBATCH --time=02:00:00",
        "#SBATCH --partition=short",
        "#SBATCH --account=lab42",
        "#SBATCH --qos=high",
        "#SBATCH --constraint=avx2",
        "#SBATCH --output=/dev/null",
        "#SBATCH --error=/dev/null",
        "#SBATCH --export=NONE",
        "",
        "export HOME='/data/project/.strand/home'",
        "export PATH='/usr/local/bin:/usr/bin:/bin'",
        "export QUOTED='it'\\''s'",
        "",
        "set -e",
        "",
        `if [ ! -x '/usr/bin/bwrap' ]; then echo "strand: this service runs jobs in bubblewrap (/usr/bin/bwrap), which is missing on $(hostname): install it on the nodes" >&2; exit 127; fi`,
        `exec '/usr/bin/bwrap' '--ro-bind' '/' '/' '--' /bin/bash -c '${inner.replaceAll("'", "'\\''")}'`,
        "",
      ].join("\n"),
    );
  });

  it("does the same for PBS, SGE and LSF: their output and error files are /dev/null", () => {
    const other = { ...request, cluster: { ...request.cluster!, extra_args: [] } };
    expect(jobDirectives("pbs", other).slice(-2)).toEqual(["#PBS -o /dev/null", "#PBS -e /dev/null"]);
    expect(jobDirectives("sge", other).slice(-2)).toEqual(["#$ -o /dev/null", "#$ -e /dev/null"]);
    expect(jobDirectives("lsf", other).slice(-2)).toEqual(["#BSUB -o /dev/null", "#BSUB -e /dev/null"]);
    // No mkdir outside the sandbox (the one inside is in the text after `exec`).
    for (const backend of ["pbs", "sge", "lsf"] as const) expect(renderJobScript(backend, other).text.split("\nexec ")[0]).not.toMatch(/^mkdir/m);
  });

  it("writes the command's output to the job's logs, appended after what the engine wrote there (pre_exec)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "strand-job-script-"));
    try {
      const logs = join(dir, ".strand/runs/r1/jobs/hello");
      mkdirSync(logs, { recursive: true });
      writeFileSync(join(logs, "stderr.log"), "pre_exec said this\n");
      // A stand-in sandbox that starts the command as it is: what matters here is the text inside it.
      const { text } = renderJobScript("slurm", { ...request, cwd: dir, command: "echo out-line\necho err-line >&2", stdoutPath: join(logs, "stdout.log"), stderrPath: join(logs, "stderr.log"), sandbox: ["/usr/bin/env", "--"], limits: [], environment: { PATH: process.env.PATH! } });
      const result = await execa("bash", ["-c", text], { reject: false, cwd: dir });
      expect(result.exitCode).toBe(0);
      expect(result.stdout + result.stderr).toBe("");
      expect(readFileSync(join(logs, "stdout.log"), "utf8")).toBe("out-line\n");
      expect(readFileSync(join(logs, "stderr.log"), "utf8")).toBe("pre_exec said this\nerr-line\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
