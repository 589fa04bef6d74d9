/** The store contract of runs, run on both databases by ../store-contract.ts. */
import { describe, expect, it } from "vitest";
import type { Run } from "../../../../src/server/store/runs/contract.js";
import { expectStoreError, type FreshStore } from "./harness.js";

/** Registers the runs area's contract tests. */
export function runContract(fresh: FreshStore): void {
  describe("runs", () => {
    it("records a run with defaults and updates it partially", async () => {
      const { store } = await fresh();
      const run = await store.createRun({ workflow_name: "rnaseq", owner: "alice", pipeline_id: "p1", pipeline_revision: 3 });
      expect(run).toEqual({
        id: expect.any(String),
        status: "queued",
        pipeline_id: "p1",
        pipeline_revision: 3,
        workflow_name: "rnaseq",
        owner: "alice",
        target: { type: "local" },
        created_at: "2026-11-21T09:00:00.000Z",
        started_at: null,
        finished_at: null,
        exit_code: null,
        counts: { total: 0, completed: 0, failed: 0, running: 0, skipped: 0, pending: 0 },
        retry_of: null,
        workspace: null,
        pid: null,
        events_path: null,
        error: null,
        request: null,
        remote: null,
      });
      expect(await store.getRun(run.id)).toEqual(run);
      // A run on a remote cluster keeps where it is there, and that changes as it goes.
      const remote = { cluster_id: "hpc", workspace: "/scratch/strand/users/alice/runs/r1", pid: null, scheduler: null, results: "pull" as const, phase: "staging" as const };
      const onCluster = await store.createRun({ workflow_name: "rnaseq", owner: "alice", remote });
      expect((await store.getRun(onCluster.id)).remote).toEqual(remote);
      const started = { ...remote, pid: 31337, scheduler: "slurm", phase: "running" as const };
      expect((await store.updateRun(onCluster.id, { remote: started })).remote).toEqual(started);
      expect((await store.getRun(onCluster.id)).remote).toEqual(started);
      // The options a run was started with are kept with it, as given.
      const options = { jobs: 4, keep_going: true, samples: ["a", "b"], config: { depth: 30, strict: false, label: "x" } };
      const withOptions = await store.createRun({ workflow_name: "rnaseq", owner: "alice", request: options });
      expect((await store.getRun(withOptions.id)).request).toEqual(options);
      const counts = { total: 4, completed: 1, failed: 0, running: 2, skipped: 0, pending: 1 };
      const running = await store.updateRun(
        run.id,
        { status: "running", started_at: "2026-11-21T09:00:01.000Z", pid: 4242, workspace: "/data/runs/x", counts },
        { expectedStatus: "queued" },
      );
      expect(running).toEqual({ ...run, status: "running", started_at: "2026-11-21T09:00:01.000Z", pid: 4242, workspace: "/data/runs/x", counts });
      expect(await store.getRun(run.id)).toEqual(running);
      await expectStoreError(store.updateRun(run.id, { status: "running" }, { expectedStatus: ["queued", "paused"] }), "CONFLICT");
      expect(await store.updateRun(run.id, {})).toEqual(running);
      const target = { type: "slurm", partition: "short", options: { account: "bio", gres: ["gpu:1"] } };
      const slurm = await store.createRun({ workflow_name: "vc", owner: "bob", target, retry_of: run.id });
      expect((await store.getRun(slurm.id)).target).toEqual(target);
      await expectStoreError(store.getRun("missing"), "NOT_FOUND");
      await expectStoreError(store.updateRun("missing", { status: "failed" }), "NOT_FOUND");
      await expectStoreError(store.createRun({ id: run.id, workflow_name: "x", owner: "a" }), "CONFLICT");
    });

    it("pages newest first with a total and a status filter; next_cursor is null on the last page", async () => {
      const { store } = await fresh();
      const created: Run[] = [];
      for (let i = 0; i < 7; i++) {
        created.push(await store.createRun({ workflow_name: i % 2 ? "odd" : "even", owner: "alice", status: i < 3 ? "completed" : "queued" }));
      }
      const newestFirst = [...created].reverse().map((r) => r.id);
      const first = await store.listRuns({ limit: 3 });
      expect(first.items.map((r) => r.id)).toEqual(newestFirst.slice(0, 3));
      expect(first.total).toBe(7);
      const second = await store.listRuns({ limit: 3, cursor: first.next_cursor });
      const third = await store.listRuns({ limit: 3, cursor: second.next_cursor });
      expect([...second.items, ...third.items].map((r) => r.id)).toEqual(newestFirst.slice(3));
      expect(third.next_cursor).toBeNull();
      const exact = await store.listRuns({ limit: 7 });
      expect(exact.next_cursor).toBeNull();
      expect(exact.items).toHaveLength(7);

      const completed = await store.listRuns({ status: "completed", limit: 2 });
      expect(completed.total).toBe(3);
      expect(completed.items.map((r) => r.id)).toEqual([created[2]!.id, created[1]!.id]);
      const rest = await store.listRuns({ status: "completed", limit: 2, cursor: completed.next_cursor });
      expect(rest).toEqual({ items: [created[0]], next_cursor: null, total: 3 });
      expect((await store.listRuns({ q: "ODD" })).total).toBe(3);
      expect((await store.listRuns({ owner: "bob" })).total).toBe(0);
      expect((await store.listRuns({ limit: 0 })).items).toHaveLength(1);
      await expectStoreError(store.listRuns({ cursor: "not-a-cursor" }), "INVALID_CURSOR");
    });

    it("neither repeats nor skips runs when runs are created between pages", async () => {
      const { store } = await fresh();
      const before: string[] = [];
      for (let i = 0; i < 25; i++) before.unshift((await store.createRun({ workflow_name: `w${i}`, owner: "alice" })).id);
      const seen: string[] = [];
      let cursor: string | null | undefined;
      let pages = 0;
      do {
        const page = await store.listRuns({ limit: 10, cursor });
        seen.push(...page.items.map((r) => r.id));
        expect(page.total).toBe(25 + pages * 3);
        cursor = page.next_cursor;
        pages++;
        for (let i = 0; i < 3; i++) await store.createRun({ workflow_name: "late", owner: "alice" });
      } while (cursor !== null);
      expect(pages).toBe(3);
      expect(seen).toEqual(before);
    });

    it("neither repeats nor skips runs while another connection inserts concurrently", async () => {
      const { open } = await fresh();
      // Real time here: the inserting store and the reading store each have their own clock, as in production.
      const reader = await open(() => new Date().toISOString());
      const writer = await open(() => new Date().toISOString());
      const before = new Set<string>();
      for (let i = 0; i < 40; i++) before.add((await writer.createRun({ workflow_name: "early", owner: "alice" })).id);
      let inserting = true;
      const inserts = (async () => {
        let count = 0;
        while (inserting) {
          await writer.createRun({ workflow_name: "late", owner: "alice" });
          count++;
          await new Promise((resolve) => setImmediate(resolve));
        }
        return count;
      })();
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await reader.listRuns({ limit: 7, cursor });
        seen.push(...page.items.map((r) => r.id));
        cursor = page.next_cursor;
        await new Promise((resolve) => setTimeout(resolve, 2));
      } while (cursor !== null);
      inserting = false;
      await inserts;
      expect(new Set(seen).size).toBe(seen.length);
      for (const id of before) expect(seen).toContain(id);
    });
  });
}
