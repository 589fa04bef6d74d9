/**
 * Scheduler command sets (one module each in src/engine/run/cluster/schedulers/): job ids from submit output,
 * native states mapped onto the engine's states with exit codes, and the status calls each backend makes
 * (with recorded scheduler output).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { lsfStatus, parseBjobs, parseBsubId } from "../../../../src/engine/run/cluster/schedulers/lsf.js";
import { parseQstatFull, parseQsubId, pbsStatus } from "../../../../src/engine/run/cluster/schedulers/pbs.js";
import { parseQacct, parseSgeQstat, parseSgeQsubId, parseSgeZombieNames, SGE_ACCOUNTING_WAIT_MS, sgeQueueStatus } from "../../../../src/engine/run/cluster/schedulers/sge.js";
import { parseSacct, parseSbatchId, parseScontrol, parseSqueue, slurmExitCode, slurmStatus } from "../../../../src/engine/run/cluster/schedulers/slurm.js";
import { createBackend } from "../../../../src/engine/run/cluster/scheduler-registry.js";
import type { CommandLine, CommandOutcome, RunSchedulerCommand } from "../../../../src/engine/run/cluster/scheduler-commands.js";

/** A command runner answering from a table (program → output), recording every call. */
function scripted(answers: Record<string, Partial<CommandOutcome>>): { run: RunSchedulerCommand; calls: CommandLine[] } {
  const calls: CommandLine[] = [];
  const run: RunSchedulerCommand = async (command) => {
    calls.push(command);
    const answer = answers[command.file];
    if (!answer) throw new Error(`unexpected command ${command.file}`);
    return { stdout: "", stderr: "", exitCode: 0, ...answer };
  };
  return { run, calls };
}

describe("job ids from submit output", () => {
  it("SLURM: --parsable with and without a cluster name, and the plain sentence", () => {
    expect(parseSbatchId("123\n")).toBe("123");
    expect(parseSbatchId("4567;cluster2\n")).toBe("4567");
    expect(parseSbatchId("Submitted batch job 89\n")).toBe("89");
    expect(parseSbatchId("sbatch: error: something\n")).toBeUndefined();
  });

  it("PBS: the full id with its server", () => {
    expect(parseQsubId("123.pbs-server\n")).toBe("123.pbs-server");
    expect(parseQsubId("77.head.example.org")).toBe("77.head.example.org");
    expect(parseQsubId("qsub: Unknown queue")).toBeUndefined();
  });

  it("SGE: -terse output and the sentence", () => {
    expect(parseSgeQsubId("4242\n")).toBe("4242");
    expect(parseSgeQsubId("4243.1-10:1\n")).toBe("4243");
    expect(parseSgeQsubId('Your job 4244 ("align_S1") has been submitted\n')).toBe("4244");
  });

  it("LSF: Job <ID> is submitted", () => {
    expect(parseBsubId("Job <9001> is submitted to default queue <normal>.\n")).toBe("9001");
    expect(parseBsubId("Job <9002> is submitted to queue <short>.")).toBe("9002");
    expect(parseBsubId("Request aborted by esub.")).toBeUndefined();
  });
});

describe("SLURM states", () => {
  it("maps every family of states", () => {
    expect(slurmStatus("PENDING")).toEqual({ state: "pending", exitCode: null, native: "PENDING" });
    expect(slurmStatus("REQUEUED").state).toBe("pending");
    expect(slurmStatus("RUNNING").state).toBe("running");
    expect(slurmStatus("COMPLETING").state).toBe("running");
    expect(slurmStatus("SUSPENDED").state).toBe("running");
    expect(slurmStatus("COMPLETED", "0:0")).toEqual({ state: "succeeded", exitCode: 0, native: "COMPLETED" });
    expect(slurmStatus("FAILED", "3:0")).toEqual({ state: "failed", exitCode: 3, native: "FAILED" });
    expect(slurmStatus("OUT_OF_MEMORY", "0:125")).toEqual({ state: "failed", exitCode: 253, native: "OUT_OF_MEMORY" });
    expect(slurmStatus("NODE_FAIL", "0:0")).toEqual({ state: "failed", exitCode: null, native: "NODE_FAIL" });
    expect(slurmStatus("CANCELLED by 1000", "0:15")).toEqual({ state: "cancelled", exitCode: 143, native: "CANCELLED" });
    expect(slurmStatus("CANCELLED+", "0:0")).toEqual({ state: "cancelled", exitCode: null, native: "CANCELLED" });
    expect(slurmStatus("TIMEOUT", "0:0")).toEqual({ state: "timed-out", exitCode: 124, native: "TIMEOUT" });
  });

  it("reads EXIT:SIGNAL exit codes", () => {
    expect(slurmExitCode("0:0")).toBe(0);
    expect(slurmExitCode("3:0")).toBe(3);
    expect(slurmExitCode("0:9")).toBe(137);
    expect(slurmExitCode("garbage")).toBeNull();
  });

  it("parses squeue, sacct and scontrol output", () => {
    expect([...parseSqueue("12 RUNNING\n13 PENDING\n\n")]).toEqual([["12", "RUNNING"], ["13", "PENDING"]]);
    expect(parseSacct("12|COMPLETED|0:0\n13|FAILED|3:0\n14|CANCELLED by 0|0:15\n")).toEqual(
      new Map([
        ["12", { state: "succeeded", exitCode: 0, native: "COMPLETED" }],
        ["13", { state: "failed", exitCode: 3, native: "FAILED" }],
        ["14", { state: "cancelled", exitCode: 143, native: "CANCELLED" }],
      ]),
    );
    const scontrol = "JobId=13 JobName=wrap UserId=root(0) JobState=FAILED Reason=NonZeroExitCode Dependency=(null) ExitCode=3:0 RunTime=00:00:00\nJobId=15 JobName=x JobState=RUNNING Reason=None ExitCode=0:0\n";
    expect(parseScontrol(scontrol)).toEqual(
      new Map([
        ["13", { state: "failed", exitCode: 3, native: "FAILED" }],
        ["15", { state: "running", exitCode: null, native: "RUNNING" }],
      ]),
    );
  });

  it("polls live jobs with one squeue, finished ones with one sacct", async () => {
    const { run, calls } = scripted({
      squeue: { stdout: "10 RUNNING\n11 PENDING\n12 COMPLETED\n" },
      sacct: { stdout: "12|COMPLETED|0:0\n13|FAILED|2:0\n" },
    });
    const statuses = await createBackend("slurm").queryStatus(["10", "11", "12", "13"], run);
    expect(Object.fromEntries([...statuses].map(([id, status]) => [id, `${status.state}:${status.exitCode}`]))).toEqual({
      "10": "running:null",
      "11": "pending:null",
      "12": "succeeded:0",
      "13": "failed:2",
    });
    expect(calls.map((call) => [call.file, ...call.args].join(" "))).toEqual([
      "squeue -h -o %i %T -t all -j 10,11,12,13",
      "sacct -n -P -X -o JobID,State,ExitCode -j 12,13",
    ]);
  });

  it("falls back to scontrol when accounting is disabled, and stops asking sacct", async () => {
    const { run, calls } = scripted({
      squeue: { stdout: "" },
      sacct: { stderr: "sacct: error: Slurm accounting storage is disabled\n", exitCode: 1 },
      scontrol: { stdout: "JobId=20 JobName=a JobState=COMPLETED ExitCode=0:0\nJobId=21 JobName=b JobState=TIMEOUT ExitCode=0:15\n" },
    });
    const backend = createBackend("slurm");
    const first = await backend.queryStatus(["20", "21", "22"], run);
    expect(first.get("20")?.state).toBe("succeeded");
    expect(first.get("21")).toEqual({ state: "timed-out", exitCode: 124, native: "TIMEOUT" });
    expect(first.has("22")).toBe(false);
    await backend.queryStatus(["22"], run);
    expect(calls.map((call) => call.file)).toEqual(["squeue", "sacct", "scontrol", "squeue", "scontrol"]);
  });

  it("does not trust sacct while it still shows a job the controller has finished", async () => {
    const { run } = scripted({
      squeue: { stdout: "30 FAILED\n" },
      sacct: { stdout: "30|RUNNING|0:0\n" },
      scontrol: { stdout: "JobId=30 JobName=a JobState=FAILED ExitCode=7:0\n" },
    });
    expect((await createBackend("slurm").queryStatus(["30"], run)).get("30")).toEqual({ state: "failed", exitCode: 7, native: "FAILED" });
  });
});

const QSTAT_FULL = `Job Id: 101.pbs-head
    Job_Name = align_S1
    job_state = R
    queue = workq

Job Id: 102.pbs-head
    Job_Name = merge
    job_state = F
    Exit_status = 0

Job Id: 103.pbs-head
    job_state = F
    Exit_status = 3
    comment = Job run at Mon Jan 01 at 10:00 on (node1:ncpus=1) and finished

Job Id: 104.pbs-head
    job_state = F
    Exit_status = 271
    comment = Job run at Mon Jan 01 at 10:00 on (node1:ncpus=1) and fin
	ished

Job Id: 105.pbs-head
    job_state = F
    Exit_status = -29
    comment = job killed: walltime 70 exceeded limit 60

Job Id: 106.pbs-head
    job_state = Q
`;

describe("PBS states", () => {
  it("parses qstat -x -f, joining wrapped values", () => {
    const jobs = parseQstatFull(QSTAT_FULL);
    expect([...jobs.keys()]).toEqual(["101.pbs-head", "102.pbs-head", "103.pbs-head", "104.pbs-head", "105.pbs-head", "106.pbs-head"]);
    expect(jobs.get("104.pbs-head")!.comment).toBe("Job run at Mon Jan 01 at 10:00 on (node1:ncpus=1) and finished");
  });

  it("maps job_state and Exit_status", () => {
    expect(pbsStatus({ job_state: "Q" }).state).toBe("pending");
    expect(pbsStatus({ job_state: "H" }).state).toBe("pending");
    expect(pbsStatus({ job_state: "R" }).state).toBe("running");
    expect(pbsStatus({ job_state: "E" }).state).toBe("running");
    expect(pbsStatus({ job_state: "F", exit_status: "0" })).toEqual({ state: "succeeded", exitCode: 0, native: "F" });
    expect(pbsStatus({ job_state: "C", exit_status: "2" })).toEqual({ state: "failed", exitCode: 2, native: "C" });
    expect(pbsStatus({ job_state: "F", exit_status: "271" })).toEqual({ state: "failed", exitCode: 143, native: "F" });
    expect(pbsStatus({ job_state: "F", exit_status: "-29" })).toEqual({ state: "timed-out", exitCode: 124, native: "F" });
    expect(pbsStatus({ job_state: "F", exit_status: "-1" })).toEqual({ state: "failed", exitCode: null, native: "F" });
  });

  it("asks for every id in one qstat and matches ids by number", async () => {
    const { run, calls } = scripted({ qstat: { stdout: QSTAT_FULL, stderr: "qstat: Unknown Job Id 107.pbs-head\n", exitCode: 153 } });
    const statuses = await createBackend("pbs").queryStatus(["101.pbs-head", "102.pbs-head", "103.pbs-head", "105.pbs-head", "106.pbs-head", "107.pbs-head", "104.pbs"], run);
    expect(Object.fromEntries([...statuses].map(([id, status]) => [id, `${status.state}:${status.exitCode}`]))).toEqual({
      "101.pbs-head": "running:null",
      "102.pbs-head": "succeeded:0",
      "103.pbs-head": "failed:3",
      "104.pbs": "failed:143",
      "105.pbs-head": "timed-out:124",
      "106.pbs-head": "pending:null",
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args.slice(0, 2)).toEqual(["-x", "-f"]);
  });
});

const SGE_QSTAT = `job-ID  prior   name       user         state submit/start at     queue                          slots ja-task-ID
-----------------------------------------------------------------------------------------------------------------
   4242 0.55500 align_S1   alice        r     01/01/2024 10:00:00 all.q@node1                        8
   4243 0.00000 merge      alice        hqw   01/01/2024 10:00:01                                    1
   4244 0.00000 broken     alice        Eqw   01/01/2024 10:00:02                                    1
`;

describe("SGE states", () => {
  it("maps qstat state words", () => {
    expect(sgeQueueStatus("qw").state).toBe("pending");
    expect(sgeQueueStatus("hqw").state).toBe("pending");
    expect(sgeQueueStatus("Rq").state).toBe("pending");
    expect(sgeQueueStatus("r").state).toBe("running");
    expect(sgeQueueStatus("Rr").state).toBe("running");
    expect(sgeQueueStatus("t").state).toBe("running");
    expect(sgeQueueStatus("dr").state).toBe("running");
    expect(sgeQueueStatus("s").state).toBe("running");
    expect(sgeQueueStatus("Eqw").state).toBe("failed");
  });

  it("parses qstat and qacct", () => {
    expect([...parseSgeQstat(SGE_QSTAT)]).toEqual([["4242", "r"], ["4243", "hqw"], ["4244", "Eqw"]]);
    expect(parseQacct("==============\nqname        all.q\njobnumber    4245\nfailed       0    \nexit_status  0\n")).toEqual({ state: "succeeded", exitCode: 0, native: "failed=0 exit_status=0" });
    expect(parseQacct("jobnumber    4246\nfailed       0    \nexit_status  3\n")).toEqual({ state: "failed", exitCode: 3, native: "failed=0 exit_status=3" });
    expect(parseQacct("jobnumber    4247\nfailed       100  : assumedly after job\nexit_status  137\n")?.exitCode).toBe(137);
    expect(parseQacct("error: job id 4248 not found\n")).toBeUndefined();
  });

  it("puts Grid Engine's reason for a failure into the state word (qacct of real GE 8.1.9)", () => {
    const walltime = "jobname      late-1              \nfailed       37  : qmaster enforced h_rt, h_cpu, or h_vmem limit\nexit_status  137                  (Killed)\n";
    expect(parseQacct(walltime)).toEqual({ state: "failed", exitCode: 137, native: "failed=37 (qmaster enforced h_rt, h_cpu, or h_vmem limit) exit_status=137" });
    expect(parseQacct("failed       100 : assumedly after job\nexit_status  137                  (Killed)\n")?.native).toBe("failed=100 (assumedly after job) exit_status=137");
  });

  it("asks qstat once, then qacct for jobs that left the queue", async () => {
    const { run, calls } = scripted({ qstat: { stdout: SGE_QSTAT }, qacct: { stdout: "jobnumber    4250\nfailed       0\nexit_status  0\n" } });
    const statuses = await createBackend("sge").queryStatus(["4242", "4243", "4250"], run);
    expect(statuses.get("4242")?.state).toBe("running");
    expect(statuses.get("4243")?.state).toBe("pending");
    expect(statuses.get("4250")?.state).toBe("succeeded");
    expect(calls.map((call) => [call.file, ...call.args].join(" "))).toEqual(["qstat -s prsz", "qacct -j 4250"]);
  });
});

// `qstat -s prsz` of real GE 8.1.9: 4260 has ended and qmaster has not yet written its accounting record
// (that waits for reporting_params' flush_time, 15 s by default); 4261 was deleted before it ever ran.
const SGE_QSTAT_FINISHED = `job-ID  prior   name       user         state submit/start at     queue                          slots ja-task-ID
-----------------------------------------------------------------------------------------------------------------
   4242 0.55500 align_S1   alice        r     01/01/2024 10:00:00 all.q@node1                        8
   4260 0.00000 hello-1    alice        z     01/01/2024 10:00:06                                    1
   4261 0.00000 held-2     alice        z     01/01/2024 10:00:59                                    1
`;
const QACCT_NOT_FOUND: Partial<CommandOutcome> = { stdout: "", stderr: "error: job id 4260 not found\n", exitCode: 1 };

describe("SGE jobs that have left the queue", () => {
  afterEach(() => vi.restoreAllMocks());

  it("keeps a finished job running until its accounting record is written, then takes its exit code", async () => {
    const backend = createBackend("sge");
    const before = await backend.queryStatus(["4242", "4260"], scripted({ qstat: { stdout: SGE_QSTAT_FINISHED }, qacct: QACCT_NOT_FOUND }).run);
    expect(before.get("4260")).toEqual({ state: "running", exitCode: null, native: "z (ended; not yet accounted)" });
    const after = await backend.queryStatus(["4260"], scripted({ qstat: { stdout: SGE_QSTAT_FINISHED }, qacct: { stdout: "jobnumber    4260\nfailed       0    \nexit_status  5                   \n" } }).run);
    expect(after.get("4260")).toEqual({ state: "failed", exitCode: 5, native: "failed=0 exit_status=5" });
  });

  it("gives up waiting for a record after SGE_ACCOUNTING_WAIT_MS: the job is then unknown", async () => {
    const backend = createBackend("sge");
    const now = vi.spyOn(Date, "now").mockReturnValue(1_000_000);
    const poll = () => backend.queryStatus(["4260"], scripted({ qstat: { stdout: SGE_QSTAT_FINISHED }, qacct: QACCT_NOT_FOUND }).run);
    expect((await poll()).get("4260")?.state).toBe("running");
    now.mockReturnValue(1_000_000 + SGE_ACCOUNTING_WAIT_MS);
    expect((await poll()).get("4260")?.state).toBe("running");
    now.mockReturnValue(1_000_001 + SGE_ACCOUNTING_WAIT_MS);
    expect((await poll()).has("4260")).toBe(false);
    expect((await poll()).has("4260")).toBe(false);
  });

  it("takes a job it asked qdel to delete, listed as finished without a record, as cancelled", async () => {
    const backend = createBackend("sge");
    expect(backend.cancelCommand(["4261"])).toEqual({ file: "qdel", args: ["4261"] });
    const statuses = await backend.queryStatus(["4261"], scripted({ qstat: { stdout: SGE_QSTAT_FINISHED }, qacct: QACCT_NOT_FOUND }).run);
    expect(statuses.get("4261")).toEqual({ state: "cancelled", exitCode: null, native: "z (deleted)" });
  });

  it("leaves a job neither qstat nor qacct knows unknown, also before a new cluster's first record (no accounting file)", async () => {
    const fresh = scripted({ qstat: { stdout: "" }, qacct: { stdout: "no jobs running since startup\n", stderr: "/var/lib/gridengine/default/common/accounting: No such file or directory\n", exitCode: 1 } });
    const statuses = await createBackend("sge").queryStatus(["4270"], fresh.run);
    expect(statuses.size).toBe(0);
    expect(fresh.calls.map((call) => [call.file, ...call.args].join(" "))).toEqual(["qstat -s prsz", "qacct -j 4270"]);
  });
});

describe("LSF states", () => {
  it("maps bjobs states and exit codes", () => {
    expect(lsfStatus("PEND").state).toBe("pending");
    expect(lsfStatus("PSUSP").state).toBe("pending");
    expect(lsfStatus("RUN").state).toBe("running");
    expect(lsfStatus("SSUSP").state).toBe("running");
    expect(lsfStatus("DONE", "-")).toEqual({ state: "succeeded", exitCode: 0, native: "DONE" });
    expect(lsfStatus("EXIT", "3")).toEqual({ state: "failed", exitCode: 3, native: "EXIT" });
    expect(lsfStatus("EXIT", "-")).toEqual({ state: "failed", exitCode: null, native: "EXIT" });
  });

  it("parses bjobs -noheader -o and asks for all ids at once", async () => {
    expect([...parseBjobs("9001 RUN -\n9002 DONE -\n9003 EXIT 2\n").keys()]).toEqual(["9001", "9002", "9003"]);
    const { run, calls } = scripted({ bjobs: { stdout: "9001 RUN -\n9003 EXIT 2\n", stderr: "Job <9004> is not found\n", exitCode: 255 } });
    const statuses = await createBackend("lsf").queryStatus(["9001", "9003", "9004"], run);
    expect(statuses.get("9003")).toEqual({ state: "failed", exitCode: 2, native: "EXIT" });
    expect(statuses.has("9004")).toBe(false);
    expect(calls[0]!.args).toEqual(["-noheader", "-o", "jobid stat exit_code", "9001", "9003", "9004"]);
  });
});

describe("submit and cancel commands", () => {
  it("submits the script's text on stdin, never a path a job could swap: sbatch --parsable, qsub, qsub -terse and bsub", () => {
    const script = "#!/bin/bash\necho hi\n";
    expect(createBackend("slurm").submitCommand(script, "/w")).toEqual({ file: "sbatch", args: ["--parsable"], stdin: script, cwd: "/w" });
    expect(createBackend("pbs").submitCommand(script, "/w")).toEqual({ file: "qsub", args: [], stdin: script, cwd: "/w" });
    expect(createBackend("sge").submitCommand(script, "/w")).toEqual({ file: "qsub", args: ["-terse"], stdin: script, cwd: "/w" });
    expect(createBackend("lsf").submitCommand(script, "/w")).toEqual({ file: "bsub", args: [], stdin: script, cwd: "/w" });
  });

  it("cancels many ids in one call", () => {
    expect(createBackend("slurm").cancelCommand(["1", "2"])).toEqual({ file: "scancel", args: ["1", "2"] });
    expect(createBackend("pbs").cancelCommand(["1.s"])).toEqual({ file: "qdel", args: ["1.s"] });
    expect(createBackend("sge").cancelCommand(["1"])).toEqual({ file: "qdel", args: ["1"] });
    expect(createBackend("lsf").cancelCommand(["1", "2"])).toEqual({ file: "bkill", args: ["1", "2"] });
  });
});

describe("a job's name at the scheduler (to tell a run's own jobs from others')", () => {
  it("SLURM: squeue while the controller knows the job, else sacct", async () => {
    const live = scripted({ squeue: { stdout: "strand-r1-3\n" } });
    expect(await createBackend("slurm").jobName("42", live.run)).toBe("strand-r1-3");
    expect(live.calls).toEqual([{ file: "squeue", args: ["-h", "-t", "all", "-o", "%j", "-j", "42"] }]);
    const old = scripted({ squeue: { stdout: "", stderr: "slurm_load_jobs error: Invalid job id specified", exitCode: 1 }, sacct: { stdout: "strand-r1-2\n" } });
    expect(await createBackend("slurm").jobName("41", old.run)).toBe("strand-r1-2");
    expect(old.calls[1]).toEqual({ file: "sacct", args: ["-n", "-P", "-X", "-o", "JobName", "-j", "41"] });
    expect(await createBackend("slurm").jobName("40", scripted({ squeue: { stdout: "" }, sacct: { stdout: "" } }).run)).toBeUndefined();
  });

  it("PBS, SGE and LSF: Job_Name of qstat -f, job_name of qstat -j (else qacct), bjobs -o job_name", async () => {
    expect(await createBackend("pbs").jobName("107.pbs-head", scripted({ qstat: { stdout: "Job Id: 107.pbs-head\n    Job_Name = strand-r1-4\n    job_state = R\n" } }).run)).toBe("strand-r1-4");
    expect(await createBackend("sge").jobName("4250", scripted({ qstat: { stdout: "job_number:                 4250\njob_name:                   strand-r1-5\n" } }).run)).toBe("strand-r1-5");
    const finished = scripted({ qstat: { stdout: "", stderr: "Following jobs do not exist: 4251", exitCode: 1 }, qacct: { stdout: "jobname      strand-r1-6\nexit_status  0\n" } });
    expect(await createBackend("sge").jobName("4251", finished.run)).toBe("strand-r1-6");
    // Ended, not yet accounted: qmaster still lists it among the finished jobs, with its whole name in -xml.
    const zombies = `<?xml version='1.0'?>\n<job_info>\n  <queue_info>\n  </queue_info>\n  <job_info>\n    <job_list state="zombie">\n      <JB_job_number>4252</JB_job_number>\n      <JAT_prio>0.00000</JAT_prio>\n      <JB_name>strand-cohort-7-12</JB_name>\n      <JB_owner>root</JB_owner>\n      <state>z</state>\n    </job_list>\n  </job_info>\n</job_info>\n`;
    expect([...parseSgeZombieNames(zombies)]).toEqual([["4252", "strand-cohort-7-12"]]);
    const ended = scripted({ qstat: { stdout: zombies }, qacct: { stdout: "", stderr: "error: job id 4252 not found", exitCode: 1 } });
    // (the table answers qstat -j with the same text, which names no job_name)
    expect(await createBackend("sge").jobName("4252", ended.run)).toBe("strand-cohort-7-12");
    expect(ended.calls.map((call) => [call.file, ...call.args].join(" "))).toEqual(["qstat -j 4252", "qstat -s z -xml"]);
    expect(await createBackend("lsf").jobName("9001", scripted({ bjobs: { stdout: "strand-r1-7\n" } }).run)).toBe("strand-r1-7");
  });
});
