/**
 * Scheduler job names (issue 25, finding 10): a run's jobs are named by run and submission number, never by
 * their instance names (which hold sample names); a restarted engine numbers on after the jobs it may adopt.
 */
import { afterAll, describe, expect, it } from "vitest";
import { jobNumberOf, runIdOfJobName, schedulerJobName } from "../../../../src/engine/run/cluster/scheduler-job-names.js";
import { highestRecordedJobNumber, writeRecord } from "../../../../src/engine/run/cluster/submission-records.js";
import { removeTempDirs, tempDir, writeFile } from "../../../support/temp-workspace.js";

afterAll(removeTempDirs);

describe("scheduler job names", () => {
  it("name a service's jobs strand-<run id>-<n> and a hand-started run's <rule>-<n>, never with wildcard values", () => {
    const runId = "0b7c4f3e-8d2a-4c1b-9e5f-6a7b8c9d0e1f";
    expect(schedulerJobName(1, { runId, rule: "align_all" })).toBe(`strand-${runId}-1`);
    expect(schedulerJobName(12, { rule: "align_all" })).toBe("align_all-12");
    // Only characters every scheduler takes, starting with a letter (SGE and PBS refuse others).
    expect(schedulerJobName(3, { rule: "transform:split fastq" })).toBe("transform_split_fastq-3");
    expect(schedulerJobName(4, { rule: "2nd_pass" })).toBe("job_2nd_pass-4");
    expect(schedulerJobName(5, { rule: "r".repeat(80) })).toBe(`${"r".repeat(32)}-5`);
  });

  it("give back the run id of a service's job name, and nothing for other names", () => {
    const runId = "0b7c4f3e-8d2a-4c1b-9e5f-6a7b8c9d0e1f";
    expect(runIdOfJobName(schedulerJobName(7, { runId, rule: "x" }))).toBe(runId);
    expect(runIdOfJobName("strand-20261121-103000-a1b2-3")).toBe("20261121-103000-a1b2");
    for (const name of ["align_all-3", "strand-", "strand--1", "strand-abc", "strand-a b-1", "xstrand-abc-1", "align_PATIENT-0042"]) expect(runIdOfJobName(name), name).toBeUndefined();
  });

  it("number on after the highest number among the records a restarted engine may adopt", async () => {
    const workdir = tempDir();
    expect(await highestRecordedJobNumber(workdir)).toBe(0);
    const record = { backend: "slurm" as const, fingerprint: "f", submitted_at: "2026-01-01T00:00:00.000Z", attempt: 1, script: "/r/job.sh" };
    await writeRecord(workdir, "align_S1", { ...record, id: "10", name: "strand-r1-4" });
    await writeRecord(workdir, "align_S2", { ...record, id: "11", name: "strand-r1-9" });
    await writeRecord(workdir, "old", { ...record, id: "12" });
    writeFile(workdir, ".strand/cluster/broken.json", "{ not json");
    expect(await highestRecordedJobNumber(workdir)).toBe(9);
    expect(jobNumberOf("merge-31")).toBe(31);
    expect(jobNumberOf("merge")).toBe(0);
  });
});
