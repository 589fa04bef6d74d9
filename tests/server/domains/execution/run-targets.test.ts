/**
 * Execution targets through the service: a `slurm` target runs every job as a job of a real one-node
 * SLURM cluster (started on demand; a failure under STRICT_SERVICES=1 when it cannot exist); a `container`
 * target runs rules without an environment of their own in the given image (Docker cannot run here, so a
 * stand-in `docker` program on the engines' PATH records what it was asked and runs the command, which
 * exercises the real command the engine builds); scheduler targets whose client tools are missing are
 * refused before anything starts.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineInvocation, runFiles } from "../../../../src/server/runner/engine-command.js";
import { ensureSlurm, failWithoutSlurmWhenStrict } from "../../../support/slurm-cluster.js";
import { assertBuilt } from "../../../support/strand-cli.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import { expectData, type ServiceClient } from "../../../../src/client/service-client.js";
import { call, chainPipeline, serviceClient, waitForRun, workspaceOf } from "../../../support/run-client.js";

assertBuilt();

const slurm = await ensureSlurm();
failWithoutSlurmWhenStrict(slurm);

const standIn = mkdtempSync(join(tmpdir(), "strand-docker-"));
let service: TestService;
let client: ServiceClient;

/** A `docker` that records its arguments and runs `docker run … -w DIR IMAGE COMMAND…` on the host. */
const DOCKER_STAND_IN = `#!/usr/bin/env node
const { appendFileSync } = require("node:fs");
const { spawnSync } = require("node:child_process");
const args = process.argv.slice(2);
appendFileSync(process.env.STAND_IN_LOG, JSON.stringify(args) + "\\n");
if (args[0] !== "run") process.exit(0);
const withValue = new Set(["--user", "-u", "-v", "--volume", "-w", "--workdir", "--memory", "-m", "-e", "--env"]);
let workdir = process.cwd();
let index = 1;
for (; index < args.length; index++) {
  const arg = args[index];
  if (!arg.startsWith("-")) break;
  if (withValue.has(arg)) { if (arg === "-w" || arg === "--workdir") workdir = args[index + 1]; index++; }
}
const command = args.slice(index + 1);
const result = spawnSync(command[0], command.slice(1), { cwd: workdir, stdio: "inherit", env: { ...process.env, IN_IMAGE: args[index] } });
process.exit(result.status === null ? 1 : result.status);
`;

beforeAll(async () => {
  writeFileSync(join(standIn, "docker"), DOCKER_STAND_IN);
  chmodSync(join(standIn, "docker"), 0o755);
  service = await startTestService({
    rateLimit: 0,
    runner: { env: { PATH: `${standIn}:${process.env.PATH ?? ""}`, STAND_IN_LOG: join(standIn, "calls.jsonl") }, sampleIntervalMs: 500 },
  });
  client = serviceClient(service.url);
});

afterAll(async () => {
  await service.close();
  rmSync(standIn, { recursive: true, force: true });
});

describe("container target", () => {
  it("runs rules without an environment of their own in the target's image, and leaves rules with one alone", async () => {
    const pipeline = `[workflow]\nname = "boxed"\nversion = "1.0.0"\n\n[[rules]]\nname = "inside"\noutput = ["inside.txt"]\nshell = "echo image=$IN_IMAGE > {output[0]}"\n\n[[rules]]\nname = "own"\noutput = ["own.txt"]\nshell = "echo image=$IN_IMAGE > {output[0]}"\n[rules.environment]\ndocker = "alpine:3.20"\n`;
    const created = await client.POST("/api/runs", { body: { toml_content: pipeline, target: { type: "container", image: "ubuntu:24.04", runtime: "docker" } } });
    expect(created.response.status).toBe(201);
    expect(created.data?.target).toEqual({ type: "container", image: "ubuntu:24.04", runtime: "docker" });
    const run = await waitForRun(service.url, expectData(created).id);
    expect(run).toMatchObject({ status: "completed", counts: { total: 2, completed: 2 } });
    const workspace = workspaceOf(run);
    expect(readFileSync(join(workspace, "inside.txt"), "utf8")).toBe("image=ubuntu:24.04\n");
    expect(readFileSync(join(workspace, "own.txt"), "utf8")).toBe("image=alpine:3.20\n");
    const calls = readFileSync(join(standIn, "calls.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as string[]);
    const runs = calls.filter((args) => args[0] === "run");
    // The workspace is mounted at the same path and is the container's working folder.
    for (const args of runs) {
      expect(args).toContain("--rm");
      expect(args[args.indexOf("-v") + 1]).toBe(`${workspace}:${workspace}`);
      expect(args[args.indexOf("-w") + 1]).toBe(workspace);
    }
    // The image follows the working folder.
    expect(runs.map((args) => args[args.indexOf("-w") + 2]).sort()).toEqual(["alpine:3.20", "ubuntu:24.04"]);
  });

  it("refuses a container target without an image, and an unknown runtime", async () => {
    const pipeline = chainPipeline("no-image", [["a", "touch {output[0]}"]]);
    expect((await client.POST("/api/runs", { body: { toml_content: pipeline, target: { type: "container" } } })).error).toMatchObject({ code: "RUN_ERROR", suggestion: expect.stringContaining("image") });
    // A runtime the document does not list: only a raw request can send it.
    expect((await call(service.url, "POST", "/api/runs", { toml_content: pipeline, target: { type: "container", image: "x", runtime: "lxc" } })).body.code).toBe("BAD_REQUEST");
  });
});

describe("scheduler targets", () => {
  it("builds the engine command and profile for each scheduler", () => {
    const files = runFiles("/data/runs/r1", "r1");
    for (const type of ["slurm", "pbs", "sge", "lsf"]) {
      const invocation = engineInvocation("r1", files, { target: { type, partition: "short", account: "lab", walltime: "01:00:00", max_submitted: 20, poll_interval: "2s", extra_args: ["--qos=low"] }, jobs: 8 });
      expect(invocation.args).toEqual(expect.arrayContaining([`--executor=${type}`, "--profile=strand-target", "--max-submitted=20", "--poll-interval=2s", "--jobs=8", "--run-id=r1", `--events=${files.events}`]));
      expect(invocation.profile!.path).toBe("/data/runs/r1/profiles/strand-target.toml");
      expect(invocation.profile!.text).toContain(`backend = "${type}"`);
      expect(invocation.profile!.text).toContain('partition = "short"');
      expect(invocation.profile!.text).toContain('extra_args = [ "--qos=low" ]');
    }
    // Where webhooks may go is the service's decision: public addresses only unless it allows private ones.
    expect(engineInvocation("r1", files, { target: { type: "local" } }).args).toContain("--webhook-targets=public");
    expect(engineInvocation("r1", files, { target: { type: "local" } }, "any").args).toContain("--webhook-targets=any");
    // Values are single arguments: a sample that looks like an option stays a value.
    expect(engineInvocation("r1", files, { target: { type: "local" }, samples: ["--rerun"] }).args).toContain("--samples=--rerun");
  });

  it("refuses a scheduler whose client tools are not on the service's PATH, before anything starts", async () => {
    const pipeline = chainPipeline("nowhere", [["a", "touch {output[0]}"]]);
    const runCount = async () => expectData(await client.GET("/api/runs", { params: { query: { limit: 1 } } })).total;
    const before = await runCount();
    const hasQsub = ["/usr/bin/qsub", "/usr/local/bin/qsub"].some((path) => existsSync(path));
    const hasBsub = ["/usr/bin/bsub", "/usr/local/bin/bsub"].some((path) => existsSync(path));
    if (!hasQsub) expect((await client.POST("/api/runs", { body: { toml_content: pipeline, target: { type: "pbs" } } })).error).toMatchObject({ code: "RUN_ERROR", message: expect.stringContaining("qsub") });
    if (!hasBsub) expect((await client.POST("/api/runs", { body: { toml_content: pipeline, target: { type: "lsf", queue: "normal" } } })).error).toMatchObject({ code: "RUN_ERROR", message: expect.stringContaining("bsub") });
    expect(await runCount()).toBe(before);
  });
});

describe.skipIf(!slurm)("slurm target (real SLURM)", () => {
  it("runs every job of a run as a SLURM job and reports it like a local run", async () => {
    const pipeline = `[workflow]\nname = "on-slurm"\nversion = "1.0.0"\n\n[[sample_groups]]\nname = "g"\nsamples = ["A", "B"]\n\n[[rules]]\nname = "make"\noutput = ["out/{sample}.txt"]\nshell = "echo job $SLURM_JOB_ID sample {sample} > {output[0]}"\n\n[[rules]]\nname = "merge"\ninput = ["out/A.txt", "out/B.txt"]\noutput = ["merged.txt"]\nshell = "cat {input} > {output[0]}"\n`;
    const created = await client.POST("/api/runs", { body: { toml_content: pipeline, target: { type: "slurm", poll_interval: "1s" }, jobs: 4 } });
    expect(created.response.status).toBe(201);
    const run = await waitForRun(service.url, expectData(created).id, undefined, 120_000);
    expect(run, JSON.stringify(run.log_tail)).toMatchObject({ status: "completed", exit_code: 0, counts: { total: 3, completed: 3, failed: 0 } });
    const workspace = workspaceOf(run);
    expect(readFileSync(join(workspace, "merged.txt"), "utf8")).toMatch(/^job \d+ sample A\njob \d+ sample B\n$/);
    expect(readFileSync(join(workspace, "profiles", "strand-target.toml"), "utf8")).toContain('backend = "slurm"');
    const events = readFileSync(join(workspace, ".strand", "runs", run.id, "events.jsonl"), "utf8");
    expect(events).toContain('"executor":"slurm"');
    const logs = expectData(await client.GET("/api/runs/{id}/results", { params: { path: { id: run.id } } }));
    expect(logs.files.map((file) => file.path)).toEqual(["out/A.txt", "out/B.txt", "merged.txt"]);
  }, 180_000);
});
