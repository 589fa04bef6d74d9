/**
 * hpc mode and sample names (issue 25, finding 10): a user's run on the real one-node SLURM cluster, with a
 * sample named like a patient. While its job is in the queue, the scheduler's job name holds no wildcard
 * value, and `GET /api/hpc` shows the job to its owner and to administrators only — a viewer and another
 * user see neither the job nor the sample's name.
 */
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HpcStatus } from "../../../src/server/domains/cluster/schemas.js";
import { ensureSlurm, failWithoutSlurmWhenStrict } from "../../support/slurm-cluster.js";
import { assertBuilt } from "../../support/strand-cli.js";
import { startTeamService, type TeamService, type Who } from "../../support/team-service.js";

assertBuilt();
const slurm = await ensureSlurm();
failWithoutSlurmWhenStrict(slurm);

const SAMPLE = "PATIENT-0042-SMITH";
const PIPELINE = `[workflow]
name = "cohort"

[[sample_groups]]
name = "patients"
samples = ["${SAMPLE}"]

[[rules]]
name = "align_all"
output = ["out/{sample}.txt"]
shell = "sleep 120; echo {sample} > {output[0]}"
`;

/** The queue as squeue prints it: id, name and working folder of every job. */
async function queue(): Promise<{ id: string; name: string; workdir: string }[]> {
  const { stdout } = await execa("squeue", ["--noheader", "--all", "--format=%i|%j|%Z"]);
  return String(stdout)
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [id, name, workdir] = line.split("|");
      return { id: id!.trim(), name: name!.trim(), workdir: workdir!.trim() };
    });
}

describe.skipIf(!slurm)("scheduler jobs of a user's run in hpc mode", () => {
  let team: TeamService;
  let runId: string;
  let job: { id: string; name: string; workdir: string };

  beforeAll(async () => {
    team = await startTeamService({ mode: "hpc" });
    const created = await team.call("user", "POST", "/api/runs", { body: { toml_content: PIPELINE, target: { type: "slurm", poll_interval: "1s" } } });
    expect(created.status, created.text).toBe(201);
    runId = created.body.id as string;
    // The run's job is the one squeue shows working in the run's folder.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const workspace = (await team.service.store.getRun(runId)).workspace;
      const found = workspace ? (await queue()).find((entry) => entry.workdir === workspace) : undefined;
      if (found) {
        job = found;
        break;
      }
      if (Date.now() > deadline) throw new Error(`the run's job did not reach the queue: ${JSON.stringify(await team.service.store.getRun(runId))}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }, 90_000);
  afterAll(async () => team?.close(), 60_000);

  const hpc = async (who: Who): Promise<{ status: HpcStatus; text: string }> => {
    const answer = await team.call(who, "GET", "/api/hpc");
    expect(answer.status, answer.text).toBe(200);
    return { status: answer.body as unknown as HpcStatus, text: answer.text };
  };

  it("names the scheduler job by run and job number, never by the sample", () => {
    expect(job.name).not.toContain(SAMPLE);
    expect(job.name).not.toMatch(/PATIENT|SMITH/i);
    expect(job.name).toBe(`strand-${runId}-1`);
  });

  it("hides the job and the sample's name from a viewer and from another user", async () => {
    for (const who of ["viewer", "other"] as const) {
      const { status, text } = await hpc(who);
      expect(text, who).not.toContain(SAMPLE);
      expect(status.jobs.map((entry) => entry.id), who).not.toContain(job.id);
      expect(status.jobs_visibility, who).toBe("own");
      // The cluster's shape stays visible to every signed-in account.
      expect(status.partitions.length, who).toBeGreaterThan(0);
      expect(status.nodes.length, who).toBeGreaterThan(0);
    }
  });

  it("shows the owner their run's job, and an administrator every job", async () => {
    const own = await hpc("user");
    expect(own.status.jobs.map((entry) => entry.id)).toContain(job.id);
    expect(own.status.jobs_visibility).toBe("own");
    const admin = await hpc("admin");
    expect(admin.status.jobs.map((entry) => entry.id)).toContain(job.id);
    expect(admin.status.jobs_visibility).toBe("all");
    expect(admin.text).not.toContain(SAMPLE);
  });
});
