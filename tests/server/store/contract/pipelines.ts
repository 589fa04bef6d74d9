/** The store contract of saved pipelines, revisions, quotas and concurrent writers, run on both databases by ../store-contract.ts. */
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { isStoreError } from "../../../../src/server/store/store-error.js";
import { expectStoreError, type FreshStore, TOML, WRITER } from "./harness.js";

/** Registers the pipelines area's contract tests. */
export function pipelineContract(fresh: FreshStore): void {
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

    it("finds search candidates by name, tags or content, case-insensitively, pipelines and templates alike", async () => {
      const { store } = await fresh();
      const byName = await store.createPipeline({ name: "RNA-seq quant", toml_content: "x", owner: "alice" });
      const byTag = await store.createPipeline({ name: "one", toml_content: "x", owner: "alice", tags: ["ChIP"] });
      const byContent = await store.createPipeline({ name: "two", toml_content: "shell = 'salmon quant'", owner: "bob" });
      const percent = await store.createPipeline({ name: "100% coverage", toml_content: "x", owner: "alice" });
      await store.createPipeline({ name: "unrelated", toml_content: "x", owner: "alice" });
      const template = await store.createTemplate({ name: "Salmon template", toml_content: "x", tags: ["rna"] });

      expect((await store.searchPipelines("rna")).map((p) => p.id)).toEqual([byName.id]);
      expect((await store.searchTemplates("rna")).map((t) => t.id)).toEqual([template.id]);
      expect((await store.searchPipelines("chip")).map((p) => p.id)).toEqual([byTag.id]);
      expect((await store.searchPipelines("SALMON chip")).map((p) => p.id).sort()).toEqual([byTag.id, byContent.id].sort());
      expect(await store.searchTemplates("SALMON chip")).toHaveLength(1);
      // LIKE wildcards in the query match themselves only.
      expect((await store.searchPipelines("100%")).map((p) => p.id)).toEqual([percent.id]);
      expect(await store.searchPipelines("_")).toEqual([]);
      expect(await store.searchPipelines("   ")).toEqual([]);
      expect(await store.searchTemplates("   ")).toEqual([]);
      expect((await store.searchPipelines("quant", { visibleTo: "alice" })).map((p) => p.id)).toEqual([byName.id]);
      expect(await store.searchPipelines("x", { limit: 2 })).toHaveLength(2);
      expect(await store.searchTemplates("x", { limit: 1 })).toHaveLength(1);
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

  describe("rollback with derived fields", () => {
    it("computes fields from the restored content inside the change", async () => {
      const { store } = await fresh();
      const created = await store.createPipeline({ name: "a", toml_content: "v1", owner: "alice", version: "1.0", rules_count: 1 });
      await store.updatePipeline(created.id, { toml_content: "v2 v2", version: "2.0", rules_count: 2 });
      const restored = await store.rollbackPipeline(created.id, 1, { derive: (content) => ({ version: `from ${content}`, rules_count: content.length }) });
      expect(restored).toMatchObject({ toml_content: "v1", version: "from v1", rules_count: 2, revision: 3 });
    });
  });
}
