/** The store contract of share links, run on both databases by ../store-contract.ts. */
import { describe, expect, it } from "vitest";
import { expectStoreError, type FreshStore } from "./harness.js";

/** Registers the shares area's contract tests. */
export function shareContract(fresh: FreshStore): void {
  describe("shares", () => {
    it("creates, expires and revokes share links", async () => {
      const { store, clock } = await fresh();
      const pipeline = await store.createPipeline({ name: "p", toml_content: "", owner: "alice" });
      const forever = await store.createShare({ pipeline_id: pipeline.id });
      expect(forever).toEqual({
        token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
        pipeline_id: pipeline.id,
        created_at: "2026-11-21T09:00:00.001Z",
        expires_at: null,
        revoked_at: null,
        state: "active",
      });
      const daily = await store.createShare({
        token: "tok-1",
        pipeline_id: pipeline.id,
        expires_at: "2026-11-22T09:00:00.000Z",
      });
      expect((await store.getShare("tok-1")).state).toBe("active");
      clock.advance(25 * 3600_000);
      expect(await store.getShare("tok-1")).toEqual({ ...daily, state: "expired" });
      expect((await store.getShare(forever.token)).state).toBe("active");

      await expectStoreError(store.revokeShare("another-pipeline", forever.token), "NOT_FOUND");
      const revoked = await store.revokeShare(pipeline.id, forever.token);
      expect(revoked.state).toBe("revoked");
      expect(revoked.revoked_at).not.toBeNull();
      const again = await store.revokeShare(pipeline.id, forever.token);
      expect(again.revoked_at).toBe(revoked.revoked_at);
      expect(await store.getShare(forever.token)).toEqual(revoked);

      await expectStoreError(store.createShare({ token: "tok-1", pipeline_id: pipeline.id }), "CONFLICT");
      await expectStoreError(store.createShare({ pipeline_id: "missing" }), "NOT_FOUND");
      await expectStoreError(store.getShare("missing"), "NOT_FOUND");
      await expectStoreError(store.revokeShare(pipeline.id, "missing"), "NOT_FOUND");
    });

    it("lists a pipeline's share links newest first with their states", async () => {
      const { store, clock } = await fresh();
      const pipeline = await store.createPipeline({ name: "p", toml_content: "", owner: "alice" });
      const other = await store.createPipeline({ name: "q", toml_content: "", owner: "alice" });
      const first = await store.createShare({ token: "first", pipeline_id: pipeline.id, expires_at: "2026-11-21T10:00:00.000Z" });
      clock.advance(1000);
      const second = await store.createShare({ token: "second", pipeline_id: pipeline.id });
      await store.createShare({ token: "elsewhere", pipeline_id: other.id });
      await store.revokeShare(pipeline.id, "second");
      clock.advance(2 * 3600_000);
      const listed = await store.listShares(pipeline.id);
      expect(listed.map((share) => [share.token, share.state])).toEqual([
        ["second", "revoked"],
        ["first", "expired"],
      ]);
      expect(listed[1]).toEqual({ ...first, state: "expired" });
      expect(listed[0]!.created_at > second.created_at || listed[0]!.created_at === second.created_at).toBe(true);
      expect(await store.listShares((await store.createPipeline({ name: "r", toml_content: "", owner: "bob" })).id)).toEqual([]);
      await expectStoreError(store.listShares("missing"), "NOT_FOUND");
    });
  });
}
