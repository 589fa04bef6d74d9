/** The store contract of chat sessions and messages, run on both databases by ../store-contract.ts. */
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { SERVER_AI_SCOPE } from "../../../../src/server/store/ai-settings/contract.js";
import type { ChatSession } from "../../../../src/server/store/chat/contract.js";
import { APPENDER, expectStoreError, type FreshStore } from "./harness.js";

/** Registers the chat area's contract tests. */
export function chatContract(fresh: FreshStore): void {
  describe("chat sessions", () => {
    it("starts a session without messages, reads it back identically and refuses a taken id", async () => {
      const { store } = await fresh();
      const session = await store.createChatSession({ owner: "alice", title: "Align RNA-seq reads" });
      expect(session).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        owner: "alice",
        title: "Align RNA-seq reads",
        summary: null,
        summarised_through: 0,
        created_at: "2026-11-21T09:00:00.000Z",
        updated_at: "2026-11-21T09:00:00.000Z",
        message_count: 0,
      });
      expect(await store.getChatSession(session.id)).toEqual(session);
      expect(await store.listChatMessages(session.id)).toEqual([]);
      const chosen = await store.createChatSession({ id: "6f1c6a8e-0000-4000-8000-000000000001", owner: "bob", title: "t" });
      expect(chosen.id).toBe("6f1c6a8e-0000-4000-8000-000000000001");
      await expectStoreError(store.createChatSession({ id: chosen.id, owner: "alice", title: "again" }), "CONFLICT");
      expect(await store.getChatSession(chosen.id)).toEqual(chosen);
    });

    it("answers NOT_FOUND for unknown sessions", async () => {
      const { store } = await fresh();
      await expectStoreError(store.getChatSession("missing"), "NOT_FOUND");
      await expectStoreError(store.appendChatMessage({ session_id: "missing", role: "user", content: "hi" }), "NOT_FOUND");
      await expectStoreError(store.listChatMessages("missing"), "NOT_FOUND");
      await expectStoreError(store.setChatSummary("missing", "s", 1), "NOT_FOUND");
      await expectStoreError(store.deleteChatSession("missing"), "NOT_FOUND");
      expect(await store.listChatSessions("alice")).toEqual({ items: [], next_cursor: null });
    });

    it("numbers messages from 1, moves the session's updated_at and count, keeps its title, and reads messages by seq", async () => {
      const { store } = await fresh();
      const session = await store.createChatSession({ owner: "alice", title: "first question" });
      const asked = await store.appendChatMessage({ session_id: session.id, role: "user", content: "Which aligner?" });
      expect(asked).toEqual({ session_id: session.id, seq: 1, role: "user", content: "Which aligner?", metadata: null, created_at: "2026-11-21T09:00:00.001Z" });
      const metadata = { tool: "lookup_tool", arguments: { name: "STAR", versions: [2, 7] }, ok: true, note: null };
      const called = await store.appendChatMessage({ session_id: session.id, role: "tool", content: "{}", metadata });
      const answered = await store.appendChatMessage({ session_id: session.id, role: "assistant", content: "STAR", metadata: null });
      expect([called.seq, answered.seq]).toEqual([2, 3]);
      expect(await store.getChatSession(session.id)).toEqual({
        ...session,
        title: "first question",
        updated_at: answered.created_at,
        message_count: 3,
      });
      const all = await store.listChatMessages(session.id);
      expect(all).toEqual([asked, { ...called, metadata }, answered]);
      expect(all[1]!.metadata).toEqual(metadata);
      expect(await store.listChatMessages(session.id, { after: 1 })).toEqual([called, answered]);
      expect(await store.listChatMessages(session.id, { after: 1, limit: 1 })).toEqual([called]);
      expect(await store.listChatMessages(session.id, { after: 3 })).toEqual([]);
      expect(await store.listChatMessages(session.id, { limit: 0 })).toEqual([asked]);
    });

    it("records the summary of the first messages without moving updated_at", async () => {
      const { store } = await fresh();
      const session = await store.createChatSession({ owner: "alice", title: "t" });
      for (let i = 0; i < 4; i++) await store.appendChatMessage({ session_id: session.id, role: "user", content: `m${i}` });
      const before = await store.getChatSession(session.id);
      await store.setChatSummary(session.id, "The user asked about m0 and m1.", 2);
      expect(await store.getChatSession(session.id)).toEqual({ ...before, summary: "The user asked about m0 and m1.", summarised_through: 2 });
      await store.setChatSummary(session.id, "Everything so far.", 4);
      expect(await store.getChatSession(session.id)).toMatchObject({ summary: "Everything so far.", summarised_through: 4, message_count: 4 });
      expect((await store.listChatMessages(session.id, { after: 4 })).length).toBe(0);
    });

    it("lists one owner's sessions most recently updated first, a page at a time", async () => {
      const { store } = await fresh();
      const sessions: ChatSession[] = [];
      for (let i = 0; i < 5; i++) sessions.push(await store.createChatSession({ owner: "alice", title: `s${i}` }));
      await store.createChatSession({ owner: "bob", title: "not alice's" });
      // A new message makes the oldest session the most recent.
      await store.appendChatMessage({ session_id: sessions[0]!.id, role: "user", content: "back again" });
      const expected = [sessions[0]!, sessions[4]!, sessions[3]!, sessions[2]!, sessions[1]!].map((s) => s.id);

      const first = await store.listChatSessions("alice", { limit: 2 });
      expect(first.items.map((s) => s.id)).toEqual(expected.slice(0, 2));
      expect(first.items[0]).toEqual(await store.getChatSession(sessions[0]!.id));
      const second = await store.listChatSessions("alice", { limit: 2, cursor: first.next_cursor! });
      const third = await store.listChatSessions("alice", { limit: 2, cursor: second.next_cursor! });
      expect([...second.items, ...third.items].map((s) => s.id)).toEqual(expected.slice(2));
      expect(third.next_cursor).toBeNull();
      expect((await store.listChatSessions("alice", { limit: 5 })).next_cursor).toBeNull();
      expect((await store.listChatSessions("alice")).items.map((s) => s.id)).toEqual(expected);
      expect((await store.listChatSessions("bob")).items.map((s) => s.title)).toEqual(["not alice's"]);
      expect((await store.listChatSessions("alice", { limit: 0 })).items).toHaveLength(1);
      await expectStoreError(store.listChatSessions("alice", { cursor: "not-a-cursor" }), "INVALID_CURSOR");
    });

    it("returns 20 sessions by default and at most 100", async () => {
      const { store } = await fresh();
      for (let i = 0; i < 101; i++) await store.createChatSession({ owner: "alice", title: `s${i}` });
      const page = await store.listChatSessions("alice");
      expect(page.items).toHaveLength(20);
      expect(page.items[0]!.title).toBe("s100");
      expect(page.next_cursor).not.toBeNull();
      expect((await store.listChatSessions("alice", { limit: 1000 })).items).toHaveLength(100);
    });

    it("deletes a session with its messages", async () => {
      const { store } = await fresh();
      const session = await store.createChatSession({ owner: "alice", title: "t" });
      const kept = await store.createChatSession({ owner: "alice", title: "kept" });
      await store.appendChatMessage({ session_id: session.id, role: "user", content: "gone" });
      const keptMessage = await store.appendChatMessage({ session_id: kept.id, role: "user", content: "kept" });
      await store.deleteChatSession(session.id);
      await expectStoreError(store.getChatSession(session.id), "NOT_FOUND");
      await expectStoreError(store.deleteChatSession(session.id), "NOT_FOUND");
      // A new session under the same id starts empty: no message of the old one was left behind.
      await store.createChatSession({ id: session.id, owner: "alice", title: "reborn" });
      expect(await store.listChatMessages(session.id)).toEqual([]);
      expect((await store.appendChatMessage({ session_id: session.id, role: "user", content: "new" })).seq).toBe(1);
      expect(await store.listChatMessages(kept.id)).toEqual([keptMessage]);
    });

    it("gives concurrent appends through several store instances distinct consecutive seqs", async () => {
      const { store, open } = await fresh();
      const stores = [store, await open(), await open()];
      const session = await store.createChatSession({ owner: "alice", title: "busy" });
      const appends = 30;
      const results = await Promise.all(
        Array.from({ length: appends }, (_, i) => stores[i % stores.length]!.appendChatMessage({ session_id: session.id, role: "user", content: `m${i}` })),
      );
      const numbers = Array.from({ length: appends }, (_, i) => i + 1);
      expect(results.map((m) => m.seq).sort((a, b) => a - b)).toEqual(numbers);
      const stored = await store.listChatMessages(session.id);
      expect(stored.map((m) => m.seq)).toEqual(numbers);
      expect(new Set(stored.map((m) => m.content)).size).toBe(appends);
      for (const result of results) expect(stored[result.seq - 1]).toEqual(result);
      expect((await store.getChatSession(session.id)).message_count).toBe(appends);
    });

    it("gives concurrent appends from separate processes distinct consecutive seqs", async () => {
      const { store, location } = await fresh();
      const session = await store.createChatSession({ owner: "alice", title: "busy" });
      const appenders = 3;
      const each = 10;
      // The appenders need about a second to load; a common start time makes their appends overlap.
      const startAt = Date.now() + 2_500;
      const outputs = await Promise.all(
        Array.from({ length: appenders }, () =>
          execa(process.execPath, ["--import", "tsx", APPENDER, JSON.stringify(location), session.id, String(each), String(startAt)], {
            timeout: 60_000,
          }),
        ),
      );
      const given = outputs.flatMap((output) => JSON.parse(String(output.stdout)) as number[]);
      const numbers = Array.from({ length: appenders * each }, (_, i) => i + 1);
      expect(given.sort((a, b) => a - b)).toEqual(numbers);
      expect((await store.listChatMessages(session.id)).map((m) => m.seq)).toEqual(numbers);
      expect((await store.getChatSession(session.id)).message_count).toBe(appenders * each);
    });

    it("go with their owner's account, with the account's AI settings, and nothing of anyone else", async () => {
      const { store } = await fresh();
      const alice = await store.createUser({ username: "alice", role: "user" });
      const bob = await store.createUser({ username: "bob", role: "admin" });
      const settings = (scope: string) => ({ scope, provider: "anthropic", model: null, api_url: null, sealed_api_key: "v1:a:b:c", updated_by: bob.id });
      await store.putAiSettings(settings(alice.id));
      const bobSettings = await store.putAiSettings(settings(bob.id));
      const shared = await store.putAiSettings(settings(SERVER_AI_SCOPE));
      const aliceChat = await store.createChatSession({ owner: alice.id, title: "alice's" });
      await store.appendChatMessage({ session_id: aliceChat.id, role: "user", content: "secret plan" });
      const bobChat = await store.createChatSession({ owner: bob.id, title: "bob's" });
      const bobMessage = await store.appendChatMessage({ session_id: bobChat.id, role: "user", content: "hello" });
      // Personal mode's `local` is no account: its sessions need none.
      const localChat = await store.createChatSession({ owner: "local", title: "personal" });

      await store.deleteUser(alice.id);
      await expectStoreError(store.getChatSession(aliceChat.id), "NOT_FOUND");
      expect(await store.getAiSettings(alice.id)).toBeNull();
      expect(await store.listChatSessions(alice.id)).toEqual({ items: [], next_cursor: null });
      // Re-made under the same id, the session is empty: the messages went with it.
      await store.createChatSession({ id: aliceChat.id, owner: "local", title: "reused id" });
      expect(await store.listChatMessages(aliceChat.id)).toEqual([]);

      expect(await store.getAiSettings(bob.id)).toEqual(bobSettings);
      expect(await store.getAiSettings(SERVER_AI_SCOPE)).toEqual(shared);
      expect(await store.listChatMessages(bobChat.id)).toEqual([bobMessage]);
      expect((await store.getChatSession(localChat.id)).title).toBe("personal");

      // Settings saved again for a deleted account's id are kept (no account, nothing to cascade from).
      await store.putAiSettings(settings(alice.id));
      await store.deleteUser(bob.id);
      expect(await store.getAiSettings(bob.id)).toBeNull();
      await expectStoreError(store.getChatSession(bobChat.id), "NOT_FOUND");
      expect(await store.getAiSettings(SERVER_AI_SCOPE)).toEqual(shared);
      expect(await store.getAiSettings(alice.id)).not.toBeNull();
    });
  });
}
