/** The store contract of the service instances, run on both databases by ../store-contract.ts. */
import { describe, expect, it } from "vitest";
import type { InstanceInput } from "../../../../src/server/store/instances/contract.js";
import { type FreshStore } from "./harness.js";

function instance(id: string, overrides: Partial<InstanceInput> = {}): InstanceInput {
  return { id, host: "node-1", pid: 4242, version: "1.2.3", started_at: "2026-11-21T08:00:00.000Z", ...overrides };
}

/** Registers the instances area's contract tests. */
export function instanceContract(fresh: FreshStore): void {
  describe("the service instances", () => {
    it("registers, renews heartbeats, lists the freshest first, and removes", async () => {
      const { store, clock } = await fresh();
      expect(await store.listInstances()).toEqual([]);
      const a = await store.registerInstance(instance("a"));
      expect(a).toEqual({ ...instance("a"), heartbeat_at: "2026-11-21T09:00:00.000Z" });
      await store.registerInstance(instance("b", { host: "node-2", pid: 7 }));
      clock.advance(5_000);
      expect(await store.heartbeatInstance("a")).toBe(true);
      expect(await store.heartbeatInstance("missing")).toBe(false);
      expect((await store.listInstances()).map((record) => record.id)).toEqual(["a", "b"]);
      // Registering again replaces the record (a restart with the same SERVICE_INSTANCE_ID).
      await store.registerInstance(instance("b", { pid: 8 }));
      expect((await store.listInstances()).find((record) => record.id === "b")).toMatchObject({ pid: 8, host: "node-1" });
      expect(await store.removeInstance("a")).toBe(true);
      expect(await store.removeInstance("a")).toBe(false);
      expect((await store.listInstances()).map((record) => record.id)).toEqual(["b"]);
    });

    it("prunes the instances whose heartbeat is older than a time, and only those", async () => {
      const { store, clock } = await fresh();
      await store.registerInstance(instance("old"));
      clock.advance(60_000);
      const recent = await store.registerInstance(instance("recent"));
      expect(await store.pruneInstances(recent.heartbeat_at)).toEqual(["old"]);
      expect((await store.listInstances()).map((record) => record.id)).toEqual(["recent"]);
    });
  });
}
