/** The store contract of the audit log, run on both databases by ../store-contract.ts. */
import { describe, expect, it } from "vitest";
import type { Store } from "../../../../src/server/store/store.js";
import { type FreshStore } from "./harness.js";

/** Registers the audit area's contract tests. */
export function auditContract(fresh: FreshStore): void {
  describe("audit", () => {
    it("appends entries and pages through them newest first", async () => {
      const { store } = await fresh();
      const entries = [];
      for (let i = 0; i < 5; i++) {
        entries.push(
          await store.appendAudit({ actor: i === 0 ? null : "alice", method: "POST", path: `/api/p/${i}`, status: 201, result: "success" }),
        );
      }
      expect(entries[0]).toEqual({
        id: expect.any(String),
        time: "2026-11-21T09:00:00.000Z",
        actor: null,
        method: "POST",
        path: "/api/p/0",
        status: 201,
        result: "success",
        detail: null,
        action: "POST /api/p/0",
        resource: null,
        ip: null,
      });
      const first = await store.listAudit({ limit: 2 });
      expect(first.items).toEqual([entries[4], entries[3]]);
      const second = await store.listAudit({ limit: 2, cursor: first.next_cursor });
      expect(second.items).toEqual([entries[2], entries[1]]);
      const last = await store.listAudit({ limit: 2, cursor: second.next_cursor });
      expect(last).toEqual({ items: [entries[0]], next_cursor: null });
      expect((await store.listAudit()).items).toHaveLength(5);
      const denied = await store.appendAudit({
        method: "DELETE",
        path: "/api/users/1",
        status: 403,
        result: "denied",
        detail: "role user",
        time: "2030-01-01T00:00:00.000Z",
      });
      expect((await store.listAudit({ limit: 1 })).items).toEqual([denied]);
    });

    it("keeps the action, resource and client address, and filters by user and action", async () => {
      const { store } = await fresh();
      const create = await store.appendAudit({ actor: "alice", method: "POST", path: "/api/pipelines", status: 201, result: "success", action: "pipeline.create", resource: "pipeline/p1", ip: "192.0.2.7" });
      await store.appendAudit({ actor: "bob", method: "POST", path: "/api/pipelines", status: 201, result: "success", action: "pipeline.create", resource: "pipeline/p2" });
      const remove = await store.appendAudit({ actor: "alice", method: "DELETE", path: "/api/pipelines/p1", status: 200, result: "success", action: "pipeline.delete", resource: "pipeline/p1" });
      expect(create).toMatchObject({ action: "pipeline.create", resource: "pipeline/p1", ip: "192.0.2.7" });
      expect((await store.listAudit({ user: "alice" })).items.map((entry) => entry.id)).toEqual([remove.id, create.id]);
      expect((await store.listAudit({ user: "alice", action: "pipeline.create" })).items).toEqual([create]);
      const page = await store.listAudit({ action: "pipeline.create", limit: 1 });
      expect(page.items).toHaveLength(1);
      expect((await store.listAudit({ action: "pipeline.create", limit: 1, cursor: page.next_cursor })).items).toHaveLength(1);
      expect((await store.listAudit({ user: "carol" })).items).toEqual([]);
    });

    it("filters by result, resource and a time range, alone, together and across pages", async () => {
      const { store } = await fresh();
      const at = (minute: number) => `2026-11-21T09:${String(minute).padStart(2, "0")}:00.000Z`;
      const entry = (minute: number, actor: string | null, result: "success" | "failure" | "denied", resource: string | null) =>
        store.appendAudit({ time: at(minute), actor, method: "POST", path: "/api/x", status: 200, result, action: "x", resource });
      const e10 = await entry(10, "alice", "success", "pipeline/p1");
      const e20 = await entry(20, "bob", "denied", "pipeline/p1");
      const e30 = await entry(30, "alice", "failure", "run/r1");
      const e40 = await entry(40, "alice", "success", "run/r1");
      const e50 = await entry(50, null, "denied", null);
      const ids = async (query: Parameters<Store["listAudit"]>[0]) => (await store.listAudit(query)).items.map((e) => e.id);

      expect(await ids({ result: "denied" })).toEqual([e50.id, e20.id]);
      expect(await ids({ result: "failure" })).toEqual([e30.id]);
      expect(await ids({ resource: "run/r1" })).toEqual([e40.id, e30.id]);
      expect(await ids({ resource: "run/r" })).toEqual([]);
      // since is inclusive and until exclusive, so consecutive windows neither overlap nor leave gaps.
      expect(await ids({ since: at(30) })).toEqual([e50.id, e40.id, e30.id]);
      expect(await ids({ until: at(30) })).toEqual([e20.id, e10.id]);
      expect(await ids({ since: at(20), until: at(40) })).toEqual([e30.id, e20.id]);
      // Other spellings of the same instant compare as that instant.
      expect(await ids({ since: "2026-11-21T09:30:00Z" })).toEqual([e50.id, e40.id, e30.id]);
      expect(await ids({ since: "2026-11-21T10:30:00+01:00" })).toEqual([e50.id, e40.id, e30.id]);

      expect(await ids({ user: "alice", result: "success" })).toEqual([e40.id, e10.id]);
      expect(await ids({ resource: "pipeline/p1", result: "denied", action: "x" })).toEqual([e20.id]);
      expect(await ids({ user: "alice", resource: "run/r1", since: at(35) })).toEqual([e40.id]);

      const pages: string[][] = [];
      let cursor: string | null | undefined;
      do {
        const page = await store.listAudit({ user: "alice", since: at(10), until: at(45), limit: 1, cursor });
        pages.push(page.items.map((e) => e.id));
        cursor = page.next_cursor;
      } while (cursor !== null);
      expect(pages).toEqual([[e40.id], [e30.id], [e10.id]]);
      const denied = await store.listAudit({ result: "denied", limit: 1 });
      expect(denied.items).toEqual([e50]);
      expect(await store.listAudit({ result: "denied", limit: 1, cursor: denied.next_cursor })).toEqual({ items: [e20], next_cursor: null });
    });
  });
}
