/** The store contract of accounts, sessions, access tokens and linked identities, run on both databases by ../store-contract.ts. */
import { describe, expect, it } from "vitest";
import { expectStoreError, type FreshStore } from "./harness.js";

/** Registers the accounts area's contract tests. */
export function accountContract(fresh: FreshStore): void {
  describe("users", () => {
    it("creates accounts whose usernames are unique regardless of case, and never shows a password hash", async () => {
      const { store } = await fresh();
      const alice = await store.createUser({ username: "Alice", role: "admin", password_hash: "$argon2id$alice" });
      expect(alice).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        username: "Alice",
        role: "admin",
        created_at: "2026-11-21T09:00:00.000Z",
        updated_at: "2026-11-21T09:00:00.000Z",
        has_password: true,
      });
      const bob = await store.createUser({ id: "u-bob", username: "bob", role: "viewer" });
      expect(bob).toMatchObject({ id: "u-bob", has_password: false });
      expect(await store.getUser(alice.id)).toEqual(alice);
      expect(await store.getUser(bob.id)).not.toHaveProperty("password_hash");
      await expectStoreError(store.getUser("missing"), "NOT_FOUND");

      await expectStoreError(store.createUser({ username: "alice", role: "user" }), "CONFLICT");
      await expectStoreError(store.createUser({ username: "ALICE", role: "user" }), "CONFLICT");
      await expectStoreError(store.createUser({ id: bob.id, username: "carol", role: "user" }), "CONFLICT");
      await expect(store.createUser({ username: "root", role: "root" as never })).rejects.toThrow();

      expect(await store.findCredentials("aLiCe")).toEqual({ ...alice, password_hash: "$argon2id$alice" });
      expect(await store.findCredentials("nobody")).toBeNull();
      expect(await store.getCredentials(bob.id)).toEqual({ ...bob, password_hash: null });
      expect(await store.getCredentials("missing")).toBeNull();

      const zed = await store.createUser({ username: "Zed", role: "user" });
      const carl = await store.createUser({ username: "carl", role: "user" });
      expect(await store.listUsers()).toEqual([alice, bob, carl, zed]);
    });

    it("changes the role and the password hash, moving updated_at", async () => {
      const { store, clock } = await fresh();
      const user = await store.createUser({ username: "dana", role: "user" });
      clock.advance(60_000);
      const promoted = await store.updateUser(user.id, { role: "admin" });
      expect(promoted).toEqual({ ...user, role: "admin", updated_at: "2026-11-21T09:01:00.001Z" });
      const withPassword = await store.updateUser(user.id, { password_hash: "$argon2id$new" });
      expect(withPassword).toMatchObject({ role: "admin", has_password: true, created_at: user.created_at });
      expect(withPassword.updated_at > promoted.updated_at).toBe(true);
      expect((await store.getCredentials(user.id))?.password_hash).toBe("$argon2id$new");
      expect(await store.updateUser(user.id, { password_hash: null })).toMatchObject({ has_password: false, role: "admin" });
      expect(await store.getUser(user.id)).toMatchObject({ has_password: false, role: "admin" });
      await expectStoreError(store.updateUser("missing", { role: "viewer" }), "NOT_FOUND");
    });

    it("deletes an account with its sessions, tokens and linked identities, and nothing of anyone else", async () => {
      const { store } = await fresh();
      const alice = await store.createUser({ username: "alice", role: "user" });
      const bob = await store.createUser({ username: "bob", role: "user" });
      const expires_at = "2026-12-21T09:00:00.000Z";
      const aliceSession = await store.createSession({ user_id: alice.id, secret_hash: "s", expires_at });
      const bobSession = await store.createSession({ user_id: bob.id, secret_hash: "s", expires_at });
      const aliceToken = await store.createAccessToken({ user_id: alice.id, name: "ci", secret_hash: "t" });
      const bobToken = await store.createAccessToken({ user_id: bob.id, name: "ci", secret_hash: "t" });
      await store.linkIdentity({ provider: "github", provider_user_id: "1", user_id: alice.id, login: "alice" });
      const bobIdentity = await store.linkIdentity({ provider: "github", provider_user_id: "2", user_id: bob.id, login: "bob" });

      await store.deleteUser(alice.id);
      await expectStoreError(store.getUser(alice.id), "NOT_FOUND");
      expect(await store.getSession(aliceSession.id)).toBeNull();
      expect(await store.getAccessToken(aliceToken.id)).toBeNull();
      expect(await store.findIdentity("github", "1")).toBeNull();
      expect(await store.listSessions(alice.id)).toEqual([]);
      expect(await store.getSession(bobSession.id)).toEqual(bobSession);
      expect(await store.getAccessToken(bobToken.id)).toEqual(bobToken);
      expect(await store.listIdentities(bob.id)).toEqual([bobIdentity]);
      await expectStoreError(store.deleteUser(alice.id), "NOT_FOUND");
      // The identity is free again once its account is gone.
      await store.linkIdentity({ provider: "github", provider_user_id: "1", user_id: bob.id, login: "alice" });
      // Nothing can be attached to an account that does not exist.
      await expectStoreError(store.createSession({ user_id: alice.id, secret_hash: "s", expires_at }), "NOT_FOUND");
      await expectStoreError(store.createAccessToken({ user_id: alice.id, name: "x", secret_hash: "t" }), "NOT_FOUND");
      await expectStoreError(store.linkIdentity({ provider: "orcid", provider_user_id: "1", user_id: alice.id, login: null }), "NOT_FOUND");
    });
  });

  describe("sessions", () => {
    it("opens, reads, renews, lists newest first and ends sessions", async () => {
      const { store } = await fresh();
      const user = await store.createUser({ username: "erin", role: "user" });
      const other = await store.createUser({ username: "frank", role: "user" });
      const first = await store.createSession({
        user_id: user.id,
        secret_hash: "hash-1",
        expires_at: "2026-11-22T09:00:00.000Z",
        ip: "192.0.2.1",
        user_agent: "curl/8.5",
      });
      expect(first).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        user_id: user.id,
        secret_hash: "hash-1",
        created_at: "2026-11-21T09:00:00.002Z",
        expires_at: "2026-11-22T09:00:00.000Z",
        last_seen_at: "2026-11-21T09:00:00.002Z",
        ip: "192.0.2.1",
        user_agent: "curl/8.5",
      });
      const second = await store.createSession({ user_id: user.id, secret_hash: "hash-2", expires_at: "2026-11-22T09:00:00.000Z" });
      expect(second).toMatchObject({ ip: null, user_agent: null });
      const third = await store.createSession({ id: "chosen-id", user_id: user.id, secret_hash: "hash-3", expires_at: "2026-11-22T09:00:00.000Z" });
      const others = await store.createSession({ user_id: other.id, secret_hash: "hash-4", expires_at: "2026-11-22T09:00:00.000Z" });
      await expectStoreError(store.createSession({ id: "chosen-id", user_id: user.id, secret_hash: "x", expires_at: "2026-11-22T09:00:00.000Z" }), "CONFLICT");
      expect(await store.getSession(first.id)).toEqual(first);
      expect(await store.getSession("missing")).toBeNull();

      await store.touchSession(first.id, { last_seen_at: "2026-11-21T12:00:00.000Z" });
      expect(await store.getSession(first.id)).toEqual({ ...first, last_seen_at: "2026-11-21T12:00:00.000Z" });
      await store.touchSession(first.id, { last_seen_at: "2026-11-21T13:00:00.000Z", expires_at: "2026-11-22T13:00:00.000Z" });
      const renewed = { ...first, last_seen_at: "2026-11-21T13:00:00.000Z", expires_at: "2026-11-22T13:00:00.000Z" };
      expect(await store.getSession(first.id)).toEqual(renewed);
      await store.touchSession("missing", { last_seen_at: "2026-11-21T13:00:00.000Z" });

      expect(await store.listSessions(user.id)).toEqual([third, second, renewed]);
      expect(await store.listSessions("nobody")).toEqual([]);
      expect(await store.deleteSession(second.id)).toBe(true);
      expect(await store.deleteSession(second.id)).toBe(false);
      expect(await store.deleteUserSessions(user.id, first.id)).toBe(1);
      expect(await store.listSessions(user.id)).toEqual([renewed]);
      expect(await store.deleteUserSessions(user.id)).toBe(1);
      expect(await store.listSessions(user.id)).toEqual([]);
      expect(await store.listSessions(other.id)).toEqual([others]);
    });

    it("deletes the sessions that expired before a time, keeping the rest", async () => {
      const { store } = await fresh();
      const user = await store.createUser({ username: "gina", role: "user" });
      const expiring = (expires_at: string) => store.createSession({ user_id: user.id, secret_hash: "h", expires_at });
      await expiring("2026-11-21T08:00:00.000Z");
      await expiring("2026-11-21T09:59:59.999Z");
      const atTheMoment = await expiring("2026-11-21T10:00:00.000Z");
      const later = await expiring("2026-11-21T11:00:00.000Z");
      expect(await store.deleteExpiredSessions("2026-11-21T10:00:00.000Z")).toBe(2);
      expect(await store.listSessions(user.id)).toEqual([later, atTheMoment]);
      expect(await store.deleteExpiredSessions("2026-11-21T10:00:00.000Z")).toBe(0);
    });
  });

  describe("access tokens", () => {
    it("creates, reads, lists newest first, records uses of and deletes tokens", async () => {
      const { store } = await fresh();
      const user = await store.createUser({ username: "hana", role: "user" });
      const other = await store.createUser({ username: "ivan", role: "user" });
      const ci = await store.createAccessToken({ user_id: user.id, name: "ci", secret_hash: "hash-ci" });
      expect(ci).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        user_id: user.id,
        name: "ci",
        secret_hash: "hash-ci",
        created_at: "2026-11-21T09:00:00.002Z",
        expires_at: null,
        last_used_at: null,
      });
      const laptop = await store.createAccessToken({ id: "tok-2", user_id: user.id, name: "laptop", secret_hash: "hash-l", expires_at: "2027-01-01T00:00:00.000Z" });
      expect(laptop).toMatchObject({ id: "tok-2", expires_at: "2027-01-01T00:00:00.000Z" });
      await expectStoreError(store.createAccessToken({ id: "tok-2", user_id: user.id, name: "again", secret_hash: "x" }), "CONFLICT");
      expect(await store.getAccessToken(ci.id)).toEqual(ci);
      expect(await store.getAccessToken("missing")).toBeNull();
      expect(await store.listAccessTokens(user.id)).toEqual([laptop, ci]);
      expect(await store.listAccessTokens(other.id)).toEqual([]);

      await store.touchAccessToken(ci.id, "2026-11-21T12:00:00.000Z");
      const used = { ...ci, last_used_at: "2026-11-21T12:00:00.000Z" };
      expect(await store.getAccessToken(ci.id)).toEqual(used);
      await store.touchAccessToken("missing", "2026-11-21T12:00:00.000Z");

      expect(await store.deleteAccessToken(laptop.id)).toBe(true);
      expect(await store.deleteAccessToken(laptop.id)).toBe(false);
      expect(await store.listAccessTokens(user.id)).toEqual([used]);
    });
  });

  describe("OAuth identities", () => {
    it("links a provider identity to one account only, finds it and lists an account's links", async () => {
      const { store } = await fresh();
      const alice = await store.createUser({ username: "alice", role: "user" });
      const bob = await store.createUser({ username: "bob", role: "user" });
      const github = await store.linkIdentity({ provider: "github", provider_user_id: "583231", user_id: alice.id, login: "alice-gh" });
      expect(github).toEqual({ provider: "github", provider_user_id: "583231", user_id: alice.id, login: "alice-gh", created_at: "2026-11-21T09:00:00.002Z" });
      const orcid = await store.linkIdentity({ provider: "orcid", provider_user_id: "0000-0002-1825-0097", user_id: alice.id, login: null });
      await expectStoreError(store.linkIdentity({ provider: "github", provider_user_id: "583231", user_id: bob.id, login: "bob-gh" }), "CONFLICT");
      await expectStoreError(store.linkIdentity({ provider: "github", provider_user_id: "583231", user_id: alice.id, login: "alice-gh" }), "CONFLICT");
      // The same number at another provider is another person.
      const bobsOrcid = await store.linkIdentity({ provider: "orcid", provider_user_id: "583231", user_id: bob.id, login: null });

      expect(await store.findIdentity("github", "583231")).toEqual(github);
      expect(await store.findIdentity("orcid", "583231")).toEqual(bobsOrcid);
      expect(await store.findIdentity("github", "999")).toBeNull();
      expect(await store.listIdentities(alice.id)).toEqual([github, orcid]);
      expect(await store.listIdentities(bob.id)).toEqual([bobsOrcid]);
      expect(await store.listIdentities("nobody")).toEqual([]);
    });
  });
}
