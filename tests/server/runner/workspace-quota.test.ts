/**
 * The per-user workspace quota fails closed (issue 25, review of finding 9): a measurement that cannot be
 * made — du killed at its time limit by a workspace of millions of files, du missing, no total — counts as
 * over the quota, never as empty. Real du over real folders.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { measureWithDu, megabytes, WorkspaceQuota } from "../../../src/server/runner/workspace-quota.js";
import { removeTempDirs, tempDir } from "../../support/temp-workspace.js";

afterAll(removeTempDirs);

describe("WorkspaceQuota", () => {
  it("measures real folders with du", async () => {
    const data = tempDir();
    const runs = join(data, "users", "u1", "runs", "r1");
    mkdirSync(runs, { recursive: true });
    writeFileSync(join(runs, "big.bin"), Buffer.alloc(2 * 1024 * 1024, 1));
    const used = await measureWithDu([join(data, "users", "u1", "runs"), join(data, "users", "u1", "pipelines")]);
    expect(used).toBeGreaterThanOrEqual(2 * 1024 * 1024);
  });

  it("counts a measurement that fails or times out as over the quota, and says so", async () => {
    const exceeded: { owner: string; used: number }[] = [];
    const quota = new WorkspaceQuota({ bytes: 1024 * 1024 * 1024, dataDir: tempDir(), intervalMs: 20, measure: () => Promise.reject(new Error("du: timed out after 60 s")), onExceeded: (owner, used) => exceeded.push({ owner, used }) });
    expect(await quota.used("u1")).toBe(Number.POSITIVE_INFINITY);
    quota.watch("u1");
    await new Promise((resolve) => setTimeout(resolve, 120));
    quota.close();
    expect(exceeded.length).toBeGreaterThan(0);
    expect(exceeded[0]!.owner).toBe("u1");
    expect(megabytes(exceeded[0]!.used)).toMatch(/could not be measured/);
  });
});
