/**
 * The cached pipeline listing: served from memory until a pipeline changes through the store, or past its
 * time to live (a change by another process sharing the database); never a stale answer to the process
 * that made the change.
 */
import { afterEach, describe, expect, it } from "vitest";
import { withCachedListing } from "../../../src/server/store/pipelines/cached-listing.js";
import type { Store } from "../../../src/server/store/store.js";
import { openTempStore, type TempStore } from "../../support/temp-store.js";

const opened: TempStore[] = [];
afterEach(async () => Promise.all(opened.splice(0).map((temp) => temp.dispose())));

async function fresh(): Promise<{ raw: Store; cached: Store; clock: { now: number } }> {
  const temp = await openTempStore();
  opened.push(temp);
  const clock = { now: 0 };
  return { raw: temp.store, cached: withCachedListing(temp.store, { ttlMs: 1000, now: () => clock.now }), clock };
}

const toml = (name: string) => `[workflow]\nname = "${name}"\n`;

describe("withCachedListing", () => {
  it("answers a repeated listing with the same rows, and a new listing after every change made through it", async () => {
    const { cached } = await fresh();
    const first = await cached.createPipeline({ name: "a", toml_content: toml("a"), owner: "alice" });
    const listing = await cached.listPipelines({ limit: 100 });
    expect(listing.map((pipeline) => pipeline.name)).toEqual(["a"]);
    expect(await cached.listPipelines({ limit: 100 })).toBe(listing);
    await cached.updatePipeline(first.id, { name: "a2" });
    expect((await cached.listPipelines({ limit: 100 })).map((pipeline) => pipeline.name)).toEqual(["a2"]);
    const second = await cached.createPipeline({ name: "b", toml_content: toml("b"), owner: "bob" });
    expect((await cached.listPipelines({ limit: 100 })).map((pipeline) => pipeline.name)).toEqual(["b", "a2"]);
    await cached.rollbackPipeline(first.id, 1);
    expect((await cached.listPipelines({ limit: 100 })).map((pipeline) => pipeline.name)).toEqual(["a", "b"]);
    await cached.deletePipeline(second.id);
    expect((await cached.listPipelines({ limit: 100 })).map((pipeline) => pipeline.name)).toEqual(["a"]);
  });

  it("keeps listings apart by reader and page size", async () => {
    const { cached } = await fresh();
    await cached.createPipeline({ name: "mine", toml_content: toml("mine"), owner: "alice" });
    await cached.createPipeline({ name: "theirs", toml_content: toml("theirs"), owner: "bob" });
    expect((await cached.listPipelines({ visibleTo: "alice" })).map((pipeline) => pipeline.name)).toEqual(["mine"]);
    expect((await cached.listPipelines({ visibleTo: "bob" })).map((pipeline) => pipeline.name)).toEqual(["theirs"]);
    expect(await cached.listPipelines({ limit: 1 })).toHaveLength(1);
    expect(await cached.listPipelines({ limit: 2 })).toHaveLength(2);
  });

  it("sees a change made behind its back (another process) once the time to live has passed", async () => {
    const { raw, cached, clock } = await fresh();
    expect(await cached.listPipelines()).toEqual([]);
    await raw.createPipeline({ name: "elsewhere", toml_content: toml("elsewhere"), owner: "alice" });
    clock.now = 999;
    expect(await cached.listPipelines()).toEqual([]);
    clock.now = 1000;
    expect((await cached.listPipelines()).map((pipeline) => pipeline.name)).toEqual(["elsewhere"]);
  });

  it("does not keep a failed read, and leaves every other method to the store", async () => {
    const { raw } = await fresh();
    let fail = true;
    const flaky = Object.create(raw, { listPipelines: { value: (query: unknown) => (fail ? Promise.reject(new Error("down")) : raw.listPipelines(query as never)) } }) as Store;
    const cached = withCachedListing(flaky);
    await expect(cached.listPipelines()).rejects.toThrow("down");
    fail = false;
    expect(await cached.listPipelines()).toEqual([]);
    expect(cached.kind).toBe("sqlite");
    await expect(cached.ping()).resolves.toBeUndefined();
  });

  it("passes accounts, sessions, tokens, identities and templates straight through, never from a cache", async () => {
    const { raw, cached } = await fresh();
    const user = await cached.createUser({ username: "Alice", role: "user", password_hash: "h" });
    expect(await raw.getUser(user.id)).toEqual(user);
    expect((await cached.findCredentials("alice"))?.password_hash).toBe("h");
    const session = await cached.createSession({ user_id: user.id, secret_hash: "s", expires_at: "2999-01-01T00:00:00.000Z" });
    const token = await cached.createAccessToken({ user_id: user.id, name: "ci", secret_hash: "t" });
    await cached.linkIdentity({ provider: "github", provider_user_id: "1", user_id: user.id, login: "alice" });
    await cached.deleteUser(user.id);
    expect(await cached.getSession(session.id)).toBeNull();
    expect(await cached.getAccessToken(token.id)).toBeNull();
    expect(await cached.findIdentity("github", "1")).toBeNull();
    // Templates are read from the store every time, so a template added or deleted elsewhere shows at once.
    expect(await cached.listTemplates()).toEqual([]);
    const template = await raw.createTemplate({ name: "t", toml_content: toml("t"), owner: user.id });
    expect(await cached.listTemplates()).toEqual([template]);
    await raw.deleteTemplate(template.id);
    expect(await cached.listTemplates()).toEqual([]);
  });

  it("passes AI settings and chat sessions straight through, never from a cache", async () => {
    const { raw, cached } = await fresh();
    const settings = await cached.putAiSettings({ scope: "server", provider: "openai", model: null, api_url: null, sealed_api_key: null, updated_by: null });
    expect(await raw.getAiSettings("server")).toEqual(settings);
    const session = await cached.createChatSession({ owner: "local", title: "t" });
    expect(await cached.listChatSessions("local")).toEqual({ items: [session], next_cursor: null });
    // Written behind the wrapper's back, read through it at once.
    const message = await raw.appendChatMessage({ session_id: session.id, role: "user", content: "hi" });
    expect(await cached.listChatMessages(session.id)).toEqual([message]);
    expect((await cached.listChatSessions("local")).items[0]?.message_count).toBe(1);
    await cached.setChatSummary(session.id, "s", 1);
    expect((await raw.getChatSession(session.id)).summary).toBe("s");
    await cached.deleteChatSession(session.id);
    await cached.deleteAiSettings("server");
    expect(await raw.listChatSessions("local")).toEqual({ items: [], next_cursor: null });
    expect(await cached.getAiSettings("server")).toBeNull();
  });
});
