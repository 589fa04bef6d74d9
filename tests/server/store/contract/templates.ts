/** The store contract of templates users added, run on both databases by ../store-contract.ts. */
import { describe, expect, it } from "vitest";
import { expectStoreError, type FreshStore, TOML } from "./harness.js";

/** Registers the templates area's contract tests. */
export function templateContract(fresh: FreshStore): void {
  describe("templates", () => {
    it("adds, lists by name, reads and deletes templates", async () => {
      const { store } = await fresh();
      const b = await store.createTemplate({ name: "b", toml_content: TOML("b"), tags: ["t"], description: "B" });
      const a = await store.createTemplate({ name: "a", toml_content: TOML("a") });
      expect(a).toEqual({
        id: expect.any(String),
        name: "a",
        description: null,
        tags: [],
        toml_content: TOML("a"),
        created_at: "2026-11-21T09:00:00.001Z",
        owner: null,
      });
      expect(await store.listTemplates()).toEqual([a, b]);
      expect(await store.getTemplate(b.id)).toEqual(b);
      await expectStoreError(store.createTemplate({ id: b.id, name: "dup", toml_content: "" }), "CONFLICT");
      await store.deleteTemplate(b.id);
      await expectStoreError(store.getTemplate(b.id), "NOT_FOUND");
      await expectStoreError(store.deleteTemplate(b.id), "NOT_FOUND");
      expect(await store.listTemplates()).toEqual([a]);
    });

    it("keeps who added a template", async () => {
      const { store } = await fresh();
      const owned = await store.createTemplate({ name: "mine", toml_content: TOML("mine"), owner: "user-1" });
      expect(owned.owner).toBe("user-1");
      expect(await store.getTemplate(owned.id)).toEqual(owned);
      expect(await store.listTemplates()).toEqual([owned]);
      expect(await store.searchTemplates("mine")).toEqual([owned]);
    });
  });
}
