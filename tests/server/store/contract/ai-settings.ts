/** The store contract of AI settings, run on both databases by ../store-contract.ts. */
import { describe, expect, it } from "vitest";
import { SERVER_AI_SCOPE } from "../../../../src/server/store/ai-settings/contract.js";
import { type FreshStore } from "./harness.js";

/** Registers the ai-settings area's contract tests. */
export function aiSettingsContract(fresh: FreshStore): void {
  describe("AI settings", () => {
    it("saves, replaces, reads and deletes the settings of a scope, keeping the key only as sealed", async () => {
      const { store } = await fresh();
      expect(await store.getAiSettings(SERVER_AI_SCOPE)).toBeNull();
      const shared = await store.putAiSettings({
        scope: SERVER_AI_SCOPE,
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        api_url: null,
        sealed_api_key: "v1:aXY:dGFn:Y2lwaGVy",
        updated_by: "admin-id",
      });
      expect(shared).toEqual({
        scope: "server",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        api_url: null,
        sealed_api_key: "v1:aXY:dGFn:Y2lwaGVy",
        updated_at: "2026-11-21T09:00:00.000Z",
        updated_by: "admin-id",
      });
      expect(await store.getAiSettings(SERVER_AI_SCOPE)).toEqual(shared);

      const own = await store.putAiSettings({ scope: "local", provider: "ollama", model: null, api_url: "http://127.0.0.1:11434", sealed_api_key: null, updated_by: "local" });
      const replaced = await store.putAiSettings({ scope: SERVER_AI_SCOPE, provider: "openai", model: null, api_url: "http://127.0.0.1:9/v1", sealed_api_key: null, updated_by: null });
      expect(replaced).toEqual({ scope: "server", provider: "openai", model: null, api_url: "http://127.0.0.1:9/v1", sealed_api_key: null, updated_at: "2026-11-21T09:00:00.002Z", updated_by: null });
      expect(await store.getAiSettings(SERVER_AI_SCOPE)).toEqual(replaced);
      expect(await store.getAiSettings("local")).toEqual(own);

      await store.deleteAiSettings(SERVER_AI_SCOPE);
      expect(await store.getAiSettings(SERVER_AI_SCOPE)).toBeNull();
      await store.deleteAiSettings(SERVER_AI_SCOPE);
      await store.deleteAiSettings("never-saved");
      expect(await store.getAiSettings("local")).toEqual(own);
    });
  });
}
