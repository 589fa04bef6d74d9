/**
 * Scheduler jobs of a sandboxed service: the job runs on the node, outside the engine's sandbox, so the
 * engine starts its command in the same bubblewrap sandbox there. Against a real one-node SLURM cluster and
 * real bubblewrap: a SLURM job of a user's run cannot read the database, list the users' folders or print
 * the service's secrets, and still writes its output.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expectData } from "../../../src/client/service-client.js";
import { jobSandboxFromEnv, renderJobScript } from "../../../src/engine/run/cluster/job-script.js";
import { BWRAP_WORKS, failWithoutBwrapWhenStrict } from "../../support/bubblewrap.js";
import { serviceClient, waitForRun, workspaceOf } from "../../support/run-client.js";
import { ensureSlurm, failWithoutSlurmWhenStrict } from "../../support/slurm-cluster.js";
import { assertBuilt } from "../../support/strand-cli.js";
import { serve, type Served } from "../../support/strand-serve.js";

assertBuilt();
failWithoutBwrapWhenStrict();
const slurm = await ensureSlurm();
failWithoutSlurmWhenStrict(slurm);

const root = mkdtempSync(join(tmpdir(), "strand-sandbox-slurm-"));
const dataDir = join(root, "data");
let served: Served | undefined;

afterAll(async () => {
  await served?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe("job scripts of a sandboxed service", () => {
  it("start the command inside the sandbox on the node, and say so when bubblewrap is missing there", () => {
    const prefix = ["/usr/bin/bwrap", "--ro-bind", "/", "/", "--tmpfs", "/srv/strand data", "--"];
    const script = renderJobScript("slurm", { name: "a", jobName: "strand-r1-1", threads: 1, memory: undefined, cwd: "/w", command: "echo hi > out.txt", stdoutPath: "/w/o", stderrPath: "/w/e", sandbox: prefix }).text;
    expect(script).toContain("exec '/usr/bin/bwrap' '--ro-bind' '/' '/' '--tmpfs' '/srv/strand data' '--' /bin/bash -c ");
    expect(script).toMatch(/if \[ ! -x '\/usr\/bin\/bwrap' \]; then echo "strand: this service runs jobs in bubblewrap/);
    expect(jobSandboxFromEnv({ STRAND_JOB_SANDBOX: JSON.stringify(prefix) })).toEqual(prefix);
    expect(jobSandboxFromEnv({})).toBeUndefined();
    expect(() => jobSandboxFromEnv({ STRAND_JOB_SANDBOX: '["bwrap"]' })).toThrow(/ending with "--"/);
  });
});

describe.skipIf(!BWRAP_WORKS || !slurm)("a SLURM job of a sandboxed service", () => {
  it("cannot read the database, the users' folders or the service's secrets, and still writes its output", async () => {
    const other = join(dataDir, "users", "someone-else", "runs", "r1");
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, "result.txt"), "someone-else-result\n");
    served = await serve({ SERVICE_DATA_DIR: dataDir, SERVICE_SANDBOX: "bwrap", SERVICE_RATE_LIMIT: "0", SERVICE_AI_API_KEY: "sk-slurm-secret-81c2" });
    const client = serviceClient(served.url);
    const probe = [
      `(head -c 16 ${dataDir}/strand.db || echo no-database)`,
      `(ls -A ${dataDir}/users || true)`,
      `(cat ${other}/result.txt || echo no-other-result)`,
      "(env | grep -c sk-slurm-secret || true)",
      "echo job $SLURM_JOB_ID",
    ].join("; ");
    const pipeline = `[workflow]\nname = "probe-on-slurm"\n\n[[rules]]\nname = "probe"\noutput = ["probe.txt"]\nshell = "{ ${probe.replaceAll('"', '\\"')}; } > {output[0]} 2>&1"\n`;
    const id = expectData(await client.POST("/api/runs", { body: { toml_content: pipeline, target: { type: "slurm", poll_interval: "1s" } } })).id;
    const run = await waitForRun(served.url, id, undefined, 120_000);
    expect(run.status, run.log_tail.join("\n")).toBe("completed");
    const output = readFileSync(join(workspaceOf(run), "probe.txt"), "utf8");
    expect(output).toMatch(/^job \d+$/m);
    expect(output).not.toContain("SQLite format");
    expect(output).not.toMatch(/^someone-else$/m);
    expect(output).not.toContain("someone-else-result");
    expect(output).toContain("no-other-result");
    expect(output).toMatch(/^0$/m);
  }, 150_000);
});
