/**
 * Per-user limits on runs in team mode, with real engines: SERVICE_USER_MAX_RUNS counts a user's queued,
 * running and paused runs, SERVICE_USER_MAX_THREADS the jobs at once those runs may use (each run's `jobs`,
 * not its rules' threads); over a limit is 429 USER_LIMIT naming the limit, the use and the setting, and is
 * audited as denied. Two requests at once cannot both take the last slot; retries count; administrators are
 * held to the limits too; other users are not affected. The settings and their defaults by mode, and
 * `strand serve` applying them (and SERVICE_SIGNIN_MAX_FAILURES).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { serviceConfig } from "../../../../src/server/config.js";
import type { UserLimits } from "../../../../src/server/domains/execution/user-limits.js";
import type { Store } from "../../../../src/server/store/store.js";
import { chainPipeline } from "../../../support/run-client.js";
import { serviceStores } from "../../../support/service-stores.js";
import { assertBuilt } from "../../../support/strand-cli.js";
import { serve } from "../../../support/strand-serve.js";
import { send, startTeamService, type TeamService } from "../../../support/team-service.js";

assertBuilt();

/** A run that stays running until cancelled. */
const SLEEPY = chainPipeline("sleepy", [["wait", "sleep 60; touch {output[0]}"]]);
/** A run that fails at once. */
const FAILING = chainPipeline("failing", [["boom", "exit 3"]]);
/** Three rules of 8 threads each, which may all run at once with jobs = 3. */
const WIDE = `[workflow]\nname = "wide"\nversion = "1.0.0"\n\n${["a", "b", "c"].map((rule) => `[[rules]]\nname = "${rule}"\noutput = ["${rule}.txt"]\nthreads = 8\nshell = "sleep 60; touch {output[0]}"\n`).join("\n")}`;

let team: TeamService | undefined;
const kinds = await serviceStores();

afterEach(async () => {
  await team?.close();
  team = undefined;
});

async function start(userLimits: UserLimits, store?: Store): Promise<TeamService> {
  team = await startTeamService({ userLimits, runner: { sampleIntervalMs: 200, cancelGraceMs: 1000 }, ...(store ? { store } : {}) });
  return team;
}

describe("SERVICE_USER_MAX_RUNS", () => {
  it("refuses a user's run past the limit with 429 USER_LIMIT naming the limit, the use and the setting; others and a freed slot are not held up", async () => {
    const service = await start({ maxRuns: 2, maxThreads: 0 });
    const first = await service.call("user", "POST", "/api/runs", { body: { toml_content: SLEEPY } });
    const second = await service.call("user", "POST", "/api/runs", { body: { toml_content: SLEEPY } });
    expect([first.status, second.status]).toEqual([201, 201]);
    await waitForRunAs(service, first.body.id as string, (run) => run.status === "running");

    const refused = await service.call("user", "POST", "/api/runs", { body: { toml_content: SLEEPY } });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "USER_LIMIT", limit: "SERVICE_USER_MAX_RUNS", allowed: 2, in_use: 2, requested: 1 });
    expect(refused.body.message).toContain("you have 2 active runs");
    expect(refused.body.message).toContain("SERVICE_USER_MAX_RUNS=2");
    expect(refused.body.suggestion).toMatch(/cancel/);

    // Another user has slots of their own.
    expect((await service.call("other", "POST", "/api/runs", { body: { toml_content: SLEEPY } })).status).toBe(201);
    // A paused run still counts; a cancelled one frees its slot.
    expect((await service.call("user", "POST", `/api/runs/${first.body.id}/pause`)).status).toBe(200);
    expect((await service.call("user", "POST", "/api/runs", { body: { toml_content: SLEEPY } })).status).toBe(429);
    expect((await service.call("user", "POST", `/api/runs/${first.body.id}/cancel`)).status).toBe(200);
    expect((await service.call("user", "POST", "/api/runs", { body: { toml_content: SLEEPY } })).status).toBe(201);

    // The refusal is in the audit log as denied, with the user and the address.
    const audit = await service.call("admin", "GET", `/api/audit?user=${service.ids.user}&result=denied`);
    expect(audit.body.items).toEqual([
      expect.objectContaining({ action: "POST /api/runs", status: 429, result: "denied", ip: "127.0.0.1" }),
      expect.objectContaining({ action: "POST /api/runs", status: 429, result: "denied", ip: "127.0.0.1" }),
    ]);
  });

  // On PostgreSQL the store's queries are real I/O, so unserialised checks would interleave and both pass.
  for (const kind of kinds) {
    it(`lets only one of several requests at once take the last slot (${kind.name})`, async () => {
      const opened = await kind.open();
      try {
        const service = await start({ maxRuns: 1, maxThreads: 0 }, opened.store);
        const answers = await Promise.all(Array.from({ length: 4 }, () => service.call("user", "POST", "/api/runs", { body: { toml_content: SLEEPY } })));
        expect(answers.map((answer) => answer.status).sort()).toEqual([201, 429, 429, 429]);
        const page = await service.call("user", "GET", "/api/runs");
        expect(page.body.total).toBe(1);
        await service.close();
      } finally {
        team = undefined;
        await opened.dispose();
      }
    });
  }

  it("counts a retry like a new run, and holds administrators to the limit too", async () => {
    const service = await start({ maxRuns: 1, maxThreads: 0 });
    const failing = await service.call("user", "POST", "/api/runs", { body: { toml_content: FAILING } });
    expect(failing.status).toBe(201);
    expect((await waitForRunAs(service, failing.body.id as string)).status).toBe("failed");
    expect((await service.call("user", "POST", "/api/runs", { body: { toml_content: SLEEPY } })).status).toBe(201);
    const retry = await service.call("user", "POST", `/api/runs/${failing.body.id}/retry`);
    expect(retry.status).toBe(429);
    expect(retry.body).toMatchObject({ code: "USER_LIMIT", limit: "SERVICE_USER_MAX_RUNS" });

    expect((await service.call("admin", "POST", "/api/runs", { body: { toml_content: SLEEPY } })).status).toBe(201);
    expect((await service.call("admin", "POST", "/api/runs", { body: { toml_content: SLEEPY } })).body).toMatchObject({ code: "USER_LIMIT" });
  });
});

describe("SERVICE_USER_MAX_THREADS", () => {
  it("counts each run's jobs setting, not the sum of its rules' threads (predecessor 14.1 #32)", async () => {
    const service = await start({ maxRuns: 0, maxThreads: 4 });
    // Three rules of 8 threads, 3 jobs at once: 3 of the 4 threads, although the rules declare 24.
    const wide = await service.call("user", "POST", "/api/runs", { body: { toml_content: WIDE, jobs: 3 } });
    expect(wide.status).toBe(201);
    // No jobs setting means one job at once: 4 of 4.
    expect((await service.call("user", "POST", "/api/runs", { body: { toml_content: SLEEPY } })).status).toBe(201);

    const over = await service.call("user", "POST", "/api/runs", { body: { toml_content: SLEEPY, jobs: 1 } });
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: "USER_LIMIT", limit: "SERVICE_USER_MAX_THREADS", allowed: 4, in_use: 4, requested: 1 });
    expect(over.body.message).toContain("your active runs use 4 threads");
    expect(over.body.message).toContain("SERVICE_USER_MAX_THREADS=4");

    // A dry run executes nothing, so it takes no threads.
    const dry = await service.call("user", "POST", "/api/runs", { body: { toml_content: SLEEPY, dry_run: true } });
    expect(dry.status).toBe(201);
    // Another user has threads of their own, but not more than the limit in one run.
    const tooWide = await service.call("other", "POST", "/api/runs", { body: { toml_content: WIDE, jobs: 5 } });
    expect(tooWide.body).toMatchObject({ code: "USER_LIMIT", in_use: 0, requested: 5 });
    expect(tooWide.body.message).toContain("this run asks for 5 jobs at once");
    expect(tooWide.body.suggestion).toContain('"jobs": 4 or fewer');
    expect((await service.call("other", "POST", "/api/runs", { body: { toml_content: WIDE, jobs: 4 } })).status).toBe(201);
  });
});

describe("the settings", () => {
  it("default to 4 runs and the CPU count in team mode, 4 runs and no thread limit in hpc mode, none in personal mode; a bad value names the variable", () => {
    const team = serviceConfig({ SERVICE_MODE: "team" }).userLimits;
    expect(team.maxRuns).toBe(4);
    expect(team.maxThreads).toBeGreaterThanOrEqual(1);
    expect(serviceConfig({ SERVICE_MODE: "hpc" }).userLimits).toEqual({ maxRuns: 4, maxThreads: 0 });
    expect(serviceConfig({}).userLimits).toEqual({ maxRuns: 0, maxThreads: 0 });
    expect(serviceConfig({ SERVICE_MODE: "team", SERVICE_USER_MAX_RUNS: "0", SERVICE_USER_MAX_THREADS: "32" }).userLimits).toEqual({ maxRuns: 0, maxThreads: 32 });
    expect(serviceConfig({}).signInFailures).toBe(5);
    expect(() => serviceConfig({ SERVICE_USER_MAX_RUNS: "many" })).toThrow(/SERVICE_USER_MAX_RUNS/);
    expect(() => serviceConfig({ SERVICE_USER_MAX_THREADS: "-1" })).toThrow(/SERVICE_USER_MAX_THREADS/);
    expect(() => serviceConfig({ SERVICE_SIGNIN_MAX_FAILURES: "1.5" })).toThrow(/SERVICE_SIGNIN_MAX_FAILURES/);
  });

  it("strand serve applies SERVICE_USER_MAX_RUNS and SERVICE_SIGNIN_MAX_FAILURES from the environment", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "strand-limits-serve-"));
    const served = await serve({
      SERVICE_MODE: "team",
      SERVICE_SANDBOX: "off",
      SERVICE_DATA_DIR: dataDir,
      SERVICE_ADMIN_PASSWORD: "limits-admin-password",
      SERVICE_USER_MAX_RUNS: "1",
      SERVICE_SIGNIN_MAX_FAILURES: "1",
      SERVICE_RATE_LIMIT: "0",
    });
    try {
      expect((await send(served.url, "POST", "/api/auth/login", { body: { username: "admin", password: "wrong-password-1" } })).status).toBe(401);
      expect((await send(served.url, "POST", "/api/auth/login", { body: { username: "admin", password: "limits-admin-password" } })).body).toMatchObject({ code: "RATE_LIMITED" });
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const token = (await send(served.url, "POST", "/api/auth/login", { body: { username: "admin", password: "limits-admin-password" } })).body.token as string;
      const first = await send(served.url, "POST", "/api/runs", { token, body: { toml_content: SLEEPY } });
      expect(first.status).toBe(201);
      const second = await send(served.url, "POST", "/api/runs", { token, body: { toml_content: SLEEPY } });
      expect(second.status).toBe(429);
      expect(second.body.message).toContain("SERVICE_USER_MAX_RUNS=1");
      expect((await send(served.url, "POST", `/api/runs/${first.body.id}/cancel`, { token })).status).toBe(200);
    } finally {
      await served.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** Waits for a run through the API as its owner (the shared helper sends no credentials). */
async function waitForRunAs(service: TeamService, id: string, accept: (run: { status: string }) => boolean = (run) => ["completed", "failed", "cancelled"].includes(run.status)): Promise<{ status: string }> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const answer = await service.call("user", "GET", `/api/runs/${id}`);
    if (answer.status === 200 && accept(answer.body as { status: string })) return answer.body as { status: string };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${id} did not reach the expected state`);
}
