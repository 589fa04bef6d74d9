/**
 * The one test suite every Store implementation passes: the SQLite and PostgreSQL test files register it with
 * a factory that makes a new empty database for each test.
 */
import { join } from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import type { Clock } from "../../../src/server/store/new-records.js";
import { openStore, type OpenStoreOptions } from "../../../src/server/store/open-store.js";
import { SERVER_AI_SCOPE, type ChatSession, type Run, type Store } from "../../../src/server/store/store.js";
import { isStoreError, type StoreErrorCode } from "../../../src/server/store/store-error.js";

/** Where a new, empty database lives (a data directory or a PostgreSQL URL). */
export type DatabaseLocation = Omit<OpenStoreOptions, "clock">;

/** A clock the tests move: one millisecond per reading, plus explicit jumps. */
interface TestClock {
  read: Clock;
  advance(ms: number): void;
}

function testClock(start = "2026-11-21T09:00:00.000Z"): TestClock {
  let now = Date.parse(start);
  return {
    read: () => new Date(now++).toISOString(),
    advance: (ms) => {
      now += ms;
    },
  };
}

const WRITER = join(import.meta.dirname, "concurrent-writer.ts");
const APPENDER = join(import.meta.dirname, "concurrent-appender.ts");

async function expectStoreError(promise: Promise<unknown>, code: StoreErrorCode): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isStoreError(error, code), `expected StoreError ${code}, got ${String(error)}`).toBe(true);
}

const TOML = (name: string) => `[workflow]\nname = "${name}"\n`;

/** Registers the store contract tests; `freshDatabase` is called once per test. */
export function registerStoreContract(kind: Store["kind"], freshDatabase: () => Promise<DatabaseLocation>): void {
  const opened: Store[] = [];

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  /** A store on a new database, plus a way to open more stores on the same database. */
  async function fresh(clock: TestClock = testClock()) {
    const location = await freshDatabase();
    const open = async (clockOfThis: Clock = clock.read) => {
      const store = await openStore({ ...location, clock: clockOfThis });
      opened.push(store);
      return store;
    };
    return { store: await open(), open, location, clock };
  }

  describe(`${kind} store`, () => {
    it("reports its kind and answers a ping", async () => {
      const { store } = await fresh();
      expect(store.kind).toBe(kind);
      await store.ping();
    });

    describe("pipelines", () => {
      it("creates a pipeline at revision 1 with defaults and reads it back identically", async () => {
        const { store } = await fresh();
        const created = await store.createPipeline({ name: "rnaseq", toml_content: TOML("rnaseq"), owner: "alice" });
        expect(created).toEqual({
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          name: "rnaseq",
          version: null,
          description: null,
          tags: [],
          toml_content: TOML("rnaseq"),
          visibility: "private",
          owner: "alice",
          forked_from: null,
          rules_count: 0,
          created_at: "2026-11-21T09:00:00.000Z",
          updated_at: "2026-11-21T09:00:00.000Z",
          revision: 1,
        });
        expect(await store.getPipeline(created.id)).toEqual(created);
        const full = await store.createPipeline({
          id: "4d1c6a8e-0000-4000-8000-000000000001",
          name: "variant calling",
          version: "1.2.0",
          description: "GATK best practices",
          tags: ["dna", "gatk"],
          toml_content: TOML("vc"),
          visibility: "workspace",
          owner: "bob",
          forked_from: created.id,
          rules_count: 7,
        });
        expect(await store.getPipeline(full.id)).toEqual(full);
        expect(full.tags).toEqual(["dna", "gatk"]);
        await expectStoreError(store.createPipeline({ id: full.id, name: "x", toml_content: "", owner: "bob" }), "CONFLICT");
      });

      it("answers NOT_FOUND for unknown pipelines", async () => {
        const { store } = await fresh();
        await expectStoreError(store.getPipeline("missing"), "NOT_FOUND");
        await expectStoreError(store.updatePipeline("missing", { name: "x" }), "NOT_FOUND");
        await expectStoreError(store.deletePipeline("missing"), "NOT_FOUND");
        await expectStoreError(store.listRevisions("missing"), "NOT_FOUND");
        await expectStoreError(store.getRevision("missing", 1), "NOT_FOUND");
        await expectStoreError(store.rollbackPipeline("missing", 1), "NOT_FOUND");
      });

      it("lists the most recently updated first, with a limit clamped to 1..100", async () => {
        const { store } = await fresh();
        const ids: string[] = [];
        for (let i = 0; i < 105; i++) {
          ids.push((await store.createPipeline({ name: `p${i}`, toml_content: TOML(`p${i}`), owner: "alice" })).id);
        }
        expect((await store.listPipelines()).length).toBe(50);
        expect((await store.listPipelines({ limit: 1000 })).length).toBe(100);
        expect((await store.listPipelines({ limit: 0 })).length).toBe(1);
        expect((await store.listPipelines({ limit: 3 })).map((p) => p.id)).toEqual([ids[104], ids[103], ids[102]]);
        await store.updatePipeline(ids[0]!, { description: "touched" });
        expect((await store.listPipelines({ limit: 2 })).map((p) => p.id)).toEqual([ids[0], ids[104]]);
      });

      it("lists only what a user may read when asked", async () => {
        const { store } = await fresh();
        const own = await store.createPipeline({ name: "own", toml_content: "", owner: "alice" });
        const shared = await store.createPipeline({ name: "shared", toml_content: "", owner: "bob", visibility: "workspace" });
        await store.createPipeline({ name: "private", toml_content: "", owner: "bob" });
        await store.createPipeline({ name: "link", toml_content: "", owner: "bob", visibility: "link" });
        const visible = await store.listPipelines({ visibleTo: "alice" });
        expect(visible.map((p) => p.id).sort()).toEqual([own.id, shared.id].sort());
        expect(await store.listPipelines()).toHaveLength(4);
      });

      it("keeps every revision, bumps the revision on update and refuses a stale expected revision", async () => {
        const { store, clock } = await fresh();
        const created = await store.createPipeline({ name: "a", toml_content: TOML("a"), owner: "alice", tags: ["x"] });
        clock.advance(60_000);
        const updated = await store.updatePipeline(
          created.id,
          { name: "b", toml_content: TOML("b"), tags: ["y", "z"], rules_count: 3, version: undefined },
          { expectedRevision: 1 },
        );
        expect(updated).toEqual({
          ...created,
          name: "b",
          toml_content: TOML("b"),
          tags: ["y", "z"],
          rules_count: 3,
          revision: 2,
          updated_at: "2026-11-21T09:01:00.001Z",
        });
        expect(await store.getPipeline(created.id)).toEqual(updated);
        await expectStoreError(store.updatePipeline(created.id, { name: "c" }, { expectedRevision: 1 }), "CONFLICT");
        expect((await store.getPipeline(created.id)).revision).toBe(2);
        const third = await store.updatePipeline(created.id, { visibility: "link" });
        expect(third.revision).toBe(3);

        const revisions = await store.listRevisions(created.id);
        expect(revisions.map((r) => [r.revision, r.name, r.toml_content])).toEqual([
          [3, "b", TOML("b")],
          [2, "b", TOML("b")],
          [1, "a", TOML("a")],
        ]);
        expect(await store.getRevision(created.id, 1)).toEqual(revisions[2]);
        await expectStoreError(store.getRevision(created.id, 4), "NOT_FOUND");
      });

      it("rolls back to an earlier revision as a new revision", async () => {
        const { store } = await fresh();
        const created = await store.createPipeline({ name: "a", toml_content: TOML("a"), owner: "alice", rules_count: 1 });
        await store.updatePipeline(created.id, { name: "b", toml_content: TOML("b"), rules_count: 2 });
        await expectStoreError(store.rollbackPipeline(created.id, 1, { expectedRevision: 1 }), "CONFLICT");
        const rolledBack = await store.rollbackPipeline(created.id, 1, { expectedRevision: 2, rules_count: 1 });
        expect(rolledBack).toMatchObject({ name: "a", toml_content: TOML("a"), rules_count: 1, revision: 3 });
        expect(await store.getPipeline(created.id)).toEqual(rolledBack);
        expect((await store.listRevisions(created.id)).map((r) => [r.revision, r.name])).toEqual([
          [3, "a"],
          [2, "b"],
          [1, "a"],
        ]);
        await expectStoreError(store.rollbackPipeline(created.id, 99), "NOT_FOUND");
        expect((await store.getPipeline(created.id)).revision).toBe(3);
      });

      it("counts the bytes of revision text per pipeline and per owner, refuses a write past a quota, and prunes old revisions", async () => {
        const { store } = await fresh();
        const text = (size: number) => `[workflow]\nname = "é${"x".repeat(size)}"\n`; // é is two bytes
        const first = await store.createPipeline({ name: "a", toml_content: text(100), owner: "alice" });
        const bytes = Buffer.byteLength(text(100));
        expect((await store.listRevisions(first.id))[0]!.size_bytes).toBe(bytes);
        await store.updatePipeline(first.id, { toml_content: text(100) });
        await store.createPipeline({ name: "other", toml_content: text(100), owner: "alice" });
        await store.createPipeline({ name: "bob's", toml_content: text(100), owner: "bob" });
        expect(await store.revisionBytes({ pipelineId: first.id })).toBe(2 * bytes);
        expect(await store.revisionBytes({ owner: "alice" })).toBe(3 * bytes);
        expect(await store.revisionBytes({ owner: "nobody" })).toBe(0);

        // Past the pipeline's quota, past the owner's: refused, and nothing written.
        await expectStoreError(store.updatePipeline(first.id, { toml_content: text(100) }, { quota: { pipelineBytes: 3 * bytes - 1 } }), "QUOTA_EXCEEDED");
        await expectStoreError(store.rollbackPipeline(first.id, 1, { quota: { ownerBytes: 4 * bytes - 1 } }), "QUOTA_EXCEEDED");
        await expectStoreError(store.createPipeline({ name: "c", toml_content: text(100), owner: "alice" }, { quota: { ownerBytes: 3 * bytes } }), "QUOTA_EXCEEDED");
        await expectStoreError(store.createPipeline({ name: "huge", toml_content: text(1000), owner: "carol" }, { quota: { pipelineBytes: 1000 } }), "QUOTA_EXCEEDED");
        expect((await store.getPipeline(first.id)).revision).toBe(2);
        expect((await store.listPipelines()).map((pipeline) => pipeline.name).sort()).toEqual(["a", "bob's", "other"]);
        expect((await store.updatePipeline(first.id, { toml_content: text(100) }, { quota: { pipelineBytes: 3 * bytes, ownerBytes: 4 * bytes } })).revision).toBe(3);

        // Pruning keeps the newest revisions (at least the current one) and frees their bytes.
        await store.updatePipeline(first.id, { name: "a4" });
        expect(await store.pruneRevisions(first.id, 2)).toBe(2);
        expect((await store.listRevisions(first.id)).map((revision) => revision.revision)).toEqual([4, 3]);
        expect(await store.pruneRevisions(first.id, 0)).toBe(1);
        expect((await store.listRevisions(first.id)).map((revision) => revision.revision)).toEqual([4]);
        expect(await store.revisionBytes({ pipelineId: first.id })).toBe(bytes);
        expect(await store.pruneRevisions(first.id, 5)).toBe(0);
        await expectStoreError(store.pruneRevisions("no-such-pipeline", 1), "NOT_FOUND");
        // A rollback to a pruned revision is NOT_FOUND; the pipeline carries on from its current revision.
        await expectStoreError(store.rollbackPipeline(first.id, 1), "NOT_FOUND");
        expect((await store.updatePipeline(first.id, { name: "a5" })).revision).toBe(5);
      });

      it("deletes a pipeline with its revisions and share links", async () => {
        const { store } = await fresh();
        const doomed = await store.createPipeline({ name: "doomed", toml_content: "", owner: "alice" });
        const kept = await store.createPipeline({ name: "kept", toml_content: "", owner: "alice" });
        await store.updatePipeline(doomed.id, { name: "doomed 2" });
        const share = await store.createShare({ pipeline_id: doomed.id });
        const keptShare = await store.createShare({ pipeline_id: kept.id });
        await store.deletePipeline(doomed.id);
        await expectStoreError(store.getPipeline(doomed.id), "NOT_FOUND");
        await expectStoreError(store.listRevisions(doomed.id), "NOT_FOUND");
        await expectStoreError(store.getRevision(doomed.id, 1), "NOT_FOUND");
        await expectStoreError(store.getShare(share.token), "NOT_FOUND");
        expect((await store.getShare(keptShare.token)).state).toBe("active");
        expect(await store.listRevisions(kept.id)).toHaveLength(1);
        await expectStoreError(store.deletePipeline(doomed.id), "NOT_FOUND");
      });

      it("finds search candidates by name, tags or content, case-insensitively, with templates", async () => {
        const { store } = await fresh();
        const byName = await store.createPipeline({ name: "RNA-seq quant", toml_content: "x", owner: "alice" });
        const byTag = await store.createPipeline({ name: "one", toml_content: "x", owner: "alice", tags: ["ChIP"] });
        const byContent = await store.createPipeline({ name: "two", toml_content: "shell = 'salmon quant'", owner: "bob" });
        const percent = await store.createPipeline({ name: "100% coverage", toml_content: "x", owner: "alice" });
        await store.createPipeline({ name: "unrelated", toml_content: "x", owner: "alice" });
        const template = await store.createTemplate({ name: "Salmon template", toml_content: "x", tags: ["rna"] });

        const rna = await store.searchCandidates("rna");
        expect(rna.pipelines.map((p) => p.id)).toEqual([byName.id]);
        expect(rna.templates.map((t) => t.id)).toEqual([template.id]);
        expect((await store.searchCandidates("chip")).pipelines.map((p) => p.id)).toEqual([byTag.id]);
        const salmon = await store.searchCandidates("SALMON chip");
        expect(salmon.pipelines.map((p) => p.id).sort()).toEqual([byTag.id, byContent.id].sort());
        expect(salmon.templates).toHaveLength(1);
        // LIKE wildcards in the query match themselves only.
        expect((await store.searchCandidates("100%")).pipelines.map((p) => p.id)).toEqual([percent.id]);
        expect((await store.searchCandidates("_")).pipelines).toEqual([]);
        expect(await store.searchCandidates("   ")).toEqual({ pipelines: [], templates: [] });
        expect((await store.searchCandidates("quant", { visibleTo: "alice" })).pipelines.map((p) => p.id)).toEqual([
          byName.id,
        ]);
        expect((await store.searchCandidates("x", { limit: 2 })).pipelines).toHaveLength(2);
      });
    });

    describe("concurrent writers", () => {
      it("never lose an update across several store instances in one process", async () => {
        const { store, open } = await fresh();
        const others = [await open(), await open()];
        const stores = [store, ...others];
        const pipeline = await store.createPipeline({ name: "hot", toml_content: "", owner: "alice" });
        const updates = 30;
        const results = await Promise.all(
          Array.from({ length: updates }, (_, i) => stores[i % stores.length]!.updatePipeline(pipeline.id, { name: `u${i}` })),
        );
        expect(results.map((r) => r.revision).sort((a, b) => a - b)).toEqual(
          Array.from({ length: updates }, (_, i) => i + 2),
        );
        expect((await store.getPipeline(pipeline.id)).revision).toBe(updates + 1);
        const revisions = await store.listRevisions(pipeline.id);
        expect(revisions.map((r) => r.revision)).toEqual(Array.from({ length: updates + 1 }, (_, i) => updates + 1 - i));
        expect(new Set(revisions.map((r) => r.name)).size).toBe(updates + 1);
      });

      it("never lose an update across separate processes", async () => {
        const { store, location } = await fresh();
        const pipeline = await store.createPipeline({ name: "hot", toml_content: "", owner: "alice" });
        const writers = 4;
        const each = 10;
        // The writers need about a second to load; a common start time makes their updates overlap.
        const startAt = Date.now() + 2_500;
        const outputs = await Promise.all(
          Array.from({ length: writers }, () =>
            execa(process.execPath, ["--import", "tsx", WRITER, JSON.stringify(location), pipeline.id, String(each), String(startAt)], {
              timeout: 60_000,
            }),
          ),
        );
        const written = outputs.flatMap((output) => JSON.parse(String(output.stdout)) as number[]);
        expect(written.sort((a, b) => a - b)).toEqual(Array.from({ length: writers * each }, (_, i) => i + 2));
        expect((await store.getPipeline(pipeline.id)).revision).toBe(writers * each + 1);
        expect((await store.listRevisions(pipeline.id)).map((r) => r.revision).reverse()).toEqual(
          Array.from({ length: writers * each + 1 }, (_, i) => i + 1),
        );
      });

      it("let exactly one of two writers with the same expected revision win", async () => {
        const { store, open } = await fresh();
        const other = await open();
        const pipeline = await store.createPipeline({ name: "race", toml_content: "", owner: "alice" });
        const outcomes = await Promise.allSettled([
          store.updatePipeline(pipeline.id, { name: "first" }, { expectedRevision: 1 }),
          other.updatePipeline(pipeline.id, { name: "second" }, { expectedRevision: 1 }),
        ]);
        expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
        const rejected = outcomes.find((o) => o.status === "rejected");
        expect(isStoreError(rejected?.reason, "CONFLICT")).toBe(true);
        expect((await store.getPipeline(pipeline.id)).revision).toBe(2);
      });
    });

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
        expect((await store.searchCandidates("mine")).templates).toEqual([owned]);
      });
    });

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

    describe("rollback with derived fields", () => {
      it("computes fields from the restored content inside the change", async () => {
        const { store } = await fresh();
        const created = await store.createPipeline({ name: "a", toml_content: "v1", owner: "alice", version: "1.0", rules_count: 1 });
        await store.updatePipeline(created.id, { toml_content: "v2 v2", version: "2.0", rules_count: 2 });
        const restored = await store.rollbackPipeline(created.id, 1, { derive: (content) => ({ version: `from ${content}`, rules_count: content.length }) });
        expect(restored).toMatchObject({ toml_content: "v1", version: "from v1", rules_count: 2, revision: 3 });
      });
    });

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
        });
        expect(await store.getRun(run.id)).toEqual(run);
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

    describe("reopening", () => {
      it("keeps the data and applies migrations only once", async () => {
        const { store, open } = await fresh();
        const pipeline = await store.createPipeline({ name: "persisted", toml_content: "", owner: "alice" });
        const run = await store.createRun({ workflow_name: "w", owner: "alice" });
        await store.close();
        const reopened = await open();
        expect(await reopened.getPipeline(pipeline.id)).toEqual(pipeline);
        expect(await reopened.getRun(run.id)).toEqual(run);
        await reopened.close();
        const again = await open();
        expect((await again.listPipelines()).map((p) => p.id)).toEqual([pipeline.id]);
      });

      it("lets several instances open a new database at the same time", async () => {
        const location = await freshDatabase();
        const stores = await Promise.all(
          Array.from({ length: 3 }, () => openStore(location).then((store) => (opened.push(store), store))),
        );
        await stores[0]!.createPipeline({ name: "p", toml_content: "", owner: "a" });
        expect(await stores[2]!.listPipelines()).toHaveLength(1);
      });
    });
  });
}
