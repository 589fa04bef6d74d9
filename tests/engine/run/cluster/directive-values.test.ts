/**
 * Issue 25, finding 3: what a pipeline puts into scheduler directives. Values (partition, account, GPU
 * model, memory, the job's name, `extra_args`) are checked before a directive line is written: a newline
 * or a space would give the pipeline's author directives of their own, or shell lines that run on the node
 * before the sandbox starts. In a shared service (a job sandbox is set) `extra_args` may hold only options
 * on an allow-list, each with its value checked; on one's own machine they stay verbatim, without control
 * characters.
 */
import { describe, expect, it } from "vitest";
import { jobDirectives, renderJobScript, type JobScriptRequest } from "../../../../src/engine/run/cluster/job-script.js";
import { BACKEND_NAMES, type BackendName } from "../../../../src/engine/run/cluster/scheduler-registry.js";

const BASE: JobScriptRequest = {
  name: "align_S1",
  rule: "align",
  jobName: "strand-r1-7",
  threads: 8,
  memory: "16G",
  cwd: "/data/project",
  command: "bwa mem ref.fa S1.fq > S1.sam",
  stdoutPath: "/data/project/.strand/runs/r1/jobs/align_S1/stdout.log",
  stderrPath: "/data/project/.strand/runs/r1/jobs/align_S1/stderr.log",
  cluster: { extra_args: [] },
};

/** A job sandbox prefix as a shared service gives it (any program ending with `--`). */
const SANDBOX = ["/usr/bin/bwrap", "--ro-bind", "/", "/", "--"];

const shared = (cluster: JobScriptRequest["cluster"], backend: BackendName = "slurm") => () => renderJobScript(backend, { ...BASE, cluster, sandbox: SANDBOX });
const own = (cluster: JobScriptRequest["cluster"], backend: BackendName = "slurm") => () => renderJobScript(backend, { ...BASE, cluster });

describe("values from the pipeline", () => {
  it.each(BACKEND_NAMES)("refuses a partition with a newline for %s, naming the rule and the field, in either mode", (backend) => {
    const cluster = { partition: "debug\ntouch /tmp/escaped", extra_args: [] };
    for (const render of [shared(cluster, backend), own(cluster, backend)]) {
      expect(render).toThrow(/rule 'align'.*partition "debug\\ntouch \/tmp\/escaped" is not a scheduler name/);
    }
  });

  it("refuses an account, a GPU model or a partition with spaces, quotes or a leading dash", () => {
    expect(own({ account: "lab42 --uid=0", extra_args: [] })).toThrow(/account "lab42 --uid=0" is not a scheduler name/);
    expect(own({ partition: "-S/bin/sh", extra_args: [] }, "pbs")).toThrow(/partition "-S\/bin\/sh" is not a scheduler name/);
    expect(own({ gpu_spec: { model: "a100\n#PBS -S /tmp/x" }, extra_args: [] }, "pbs")).toThrow(/gpu_spec.model "a100\\n#PBS -S \/tmp\/x" is not a scheduler name/);
    expect(own({ partition: 'short"', extra_args: [] }, "lsf")).toThrow(/partition/);
  });

  it("takes the names schedulers use: lists of partitions, queue@server, dots, colons and plus signs", () => {
    const lines = jobDirectives("slurm", { ...BASE, cluster: { partition: "short,long", account: "lab-42_x.y", gpu_spec: { model: "a100", count: 1 }, extra_args: [] } });
    expect(lines).toContain("#SBATCH --partition=short,long");
    expect(lines).toContain("#SBATCH --account=lab-42_x.y");
    expect(jobDirectives("sge", { ...BASE, cluster: { partition: "all.q@node01", extra_args: [] } })).toContain("#$ -q all.q@node01");
  });

  it("refuses memory that is not a size, and writes a size without its spaces", () => {
    expect(own({ extra_args: [] })).not.toThrow();
    expect(() => renderJobScript("slurm", { ...BASE, memory: "16G\n#SBATCH --uid=0" })).toThrow(/rule 'align'.*memory "16G\\n#SBATCH --uid=0" is not a size/);
    expect(() => renderJobScript("pbs", { ...BASE, memory: "1G,prologue=/tmp/x" })).toThrow(/memory "1G,prologue=\/tmp\/x" is not a size/);
    expect(jobDirectives("slurm", { ...BASE, memory: " 16 G " })).toContain("#SBATCH --mem=16G");
  });

  it("refuses a job name, log path or count a scheduler could misread", () => {
    expect(() => renderJobScript("slurm", { ...BASE, jobName: "x\n#SBATCH --uid=0" })).toThrow(/job name/);
    expect(() => renderJobScript("slurm", { ...BASE, stderrPath: "/w/logs\n#SBATCH --uid=0/e.log" })).toThrow(/stderr log path/);
    expect(() => renderJobScript("slurm", { ...BASE, cluster: { gpu: 1.5, extra_args: [] } })).toThrow(/gpu/);
  });

  it("keeps extra_args verbatim on one's own machine, but refuses control characters in them", () => {
    expect(jobDirectives("slurm", { ...BASE, cluster: { extra_args: ["--export=ALL,FOO=bar", "--mail-user=me@example.org"] } })).toEqual(expect.arrayContaining(["#SBATCH --export=ALL,FOO=bar", "#SBATCH --mail-user=me@example.org"]));
    expect(own({ extra_args: ["--qos=high\ntouch /tmp/escaped"] })).toThrow(/extra_args entry "--qos=high\\ntouch \/tmp\/escaped" holds a control character/);
    expect(own({ extra_args: ["--qos=high\r"] })).toThrow(/control character/);
  });
});

describe("extra_args of a shared service's jobs", () => {
  it("passes the allowed SLURM options on, each in its long form", () => {
    const { text } = shared({ extra_args: ["--qos=high", "--constraint=avx2&ib", "--exclusive", "--gres=gpu:a100:2", "--qos high", "--nodes=1", "--ntasks=4", "--tmp=10G", "--reservation=maint_2"] })();
    expect(text).toContain(
      ["#SBATCH --qos=high", "#SBATCH --constraint=avx2&ib", "#SBATCH --exclusive", "#SBATCH --gres=gpu:a100:2", "#SBATCH --qos=high", "#SBATCH --nodes=1", "#SBATCH --ntasks=4", "#SBATCH --tmp=10G", "#SBATCH --reservation=maint_2"].join("\n"),
    );
  });

  it.each([
    ["--export=ALL,BASH_ENV=evil.sh", /--export.*environment the job script starts with/],
    ["--export-file=env.txt", /--export-file.*environment/],
    ["--get-user-env", /--get-user-env.*login environment/],
    ["--chdir=/var/tmp", /--chdir.*where the scheduler starts the job script/],
    ["-D /var/tmp", /-D.*where the scheduler starts the job script/],
    ["--output=/var/lib/strand/strand.db", /--output.*opens itself, outside the sandbox/],
    ["-e /var/tmp/x", /-e.*opens itself, outside the sandbox/],
    ["--open-mode=append", /--open-mode/],
    ["--uid=0", /--uid.*another account/],
    ["--wrap=touch /tmp/escaped", /--wrap.*runs outside the sandbox/],
    ["--mail-user=someone@example.org", /--mail-user.*mail/],
    ["--partition=other", /--partition.*set from the pipeline's own fields/],
    ["--array=1-100", /--array.*each job on its own/],
    ["--comment=hello", /--comment is not one of the options/],
    ["--qos=high,low --uid=0", /--qos.*value "high,low --uid=0" is not/],
    ["--exclusive=user", /--exclusive takes no value/],
    ["--nodes=lots", /--nodes.*value "lots" is not/],
  ])("refuses %s, saying which option and why", (entry, why) => {
    const render = shared({ extra_args: [entry] });
    expect(render).toThrow(/rule 'align': extra_args entry .* is refused/);
    expect(render).toThrow(why);
    expect(render).toThrow(/a shared service passes on only --qos=NAME, --constraint=/);
  });

  it("allows PBS, SGE and LSF options that only ask for resources, and refuses the rest", () => {
    expect(shared({ extra_args: ["-l select=1:ncpus=4:mem=8gb", "-P proj1", "-r n"] }, "pbs")().text).toContain("#PBS -l select=1:ncpus=4:mem=8gb\n#PBS -P proj1\n#PBS -r n\n");
    expect(shared({ extra_args: ["-l prologue=/tmp/x.sh"] }, "pbs")).toThrow(/-l.*prologue/);
    expect(shared({ extra_args: ["-S /tmp/shell"] }, "pbs")).toThrow(/-S.*shell/);
    expect(shared({ extra_args: ["-W stagein=/tmp/x@host:/etc/shadow"] }, "pbs")).toThrow(/-W.*staging/);
    expect(shared({ extra_args: ["-V"] }, "pbs")).toThrow(/-V.*environment/);
    expect(shared({ extra_args: ["-pe smp 4", "-l h_vmem=4G,gpu=1", "-R y"] }, "sge")().text).toContain("#$ -pe smp 4\n#$ -l h_vmem=4G,gpu=1\n#$ -R y\n");
    expect(shared({ extra_args: ["-@ /tmp/options"] }, "sge")).toThrow(/-@.*options from a file/);
    expect(shared({ extra_args: ["-C #X"] }, "sge")).toThrow(/-C.*directive prefix/);
    expect(shared({ extra_args: ['-R "rusage[mem=4000] span[hosts=1]"', "-x", "-P proj1"] }, "lsf")().text).toContain('#BSUB -R "rusage[mem=4000] span[hosts=1]"\n#BSUB -x\n#BSUB -P proj1\n');
    expect(shared({ extra_args: ['-Ep "touch /tmp/escaped"'] }, "lsf")).toThrow(/-Ep.*runs a command .* outside the sandbox/);
    expect(shared({ extra_args: ["-E touch"] }, "lsf")).toThrow(/-E.*outside the sandbox/);
    expect(shared({ extra_args: ['-R "select[mem>1]$(id)"'] }, "lsf")).toThrow(/-R.*value/);
    expect(shared({ extra_args: ["-f /etc/shadow < out"] }, "lsf")).toThrow(/-f.*copies files/);
  });
});
