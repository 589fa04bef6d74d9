/**
 * Saved pipelines over HTTP, on both stores: create (with the lint result; unparseable text refused with
 * its position), list (at most 100, newest update first), read, update with revisions, optimistic
 * concurrency and rollback, delete, search over pipelines and templates, and no lost updates when many
 * clients change one pipeline at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serviceStores, type OpenedStore } from "../../../support/service-stores.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import type { LooseJson } from "../../../support/loose-json.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function pipelineText(name: string, rules = 1, extra = ""): string {
  const body = Array.from({ length: rules }, (_, index) => `[[rules]]\nname = "step${index}"\noutput = ["out${index}.txt"]\nshell = "echo ${index} > {output[0]}"\n`).join("\n");
  return `[workflow]\nname = "${name}"\nversion = "1.${rules}.0"\ndescription = "the ${name} pipeline"\n${extra}\n${body}`;
}

for (const kind of await serviceStores()) {
  describe(`saved pipelines (${kind.name})`, () => {
    let opened: OpenedStore;
    let service: TestService;
    const send = (method: string, path: string, body?: unknown) =>
      fetch(`${service.url}${path}`, { method, headers: body === undefined ? {} : { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = async (response: Response) => (await response.json()) as Record<string, LooseJson>;
    const create = async (toml: string, extra: Record<string, unknown> = {}) => {
      const response = await send("POST", "/api/pipelines", { toml_content: toml, ...extra });
      expect(response.status).toBe(201);
      return json(response);
    };

    beforeAll(async () => {
      opened = await kind.open();
      service = await startTestService({ store: opened.store, rateLimit: 0 });
    });
    afterAll(async () => {
      await service.close();
      await opened.dispose();
    });

    it("creates a pipeline from its text, with the lint result", async () => {
      const saved = await create(pipelineText("rnaseq", 2), { tags: ["rna", "rna", "qc"] });
      expect(saved).toMatchObject({
        id: expect.stringMatching(UUID),
        name: "rnaseq",
        version: "1.2.0",
        description: "the rnaseq pipeline",
        tags: ["rna", "qc"],
        visibility: "private",
        owner: "local",
        forked_from: null,
        rules_count: 2,
        revision: 1,
        toml_content: pipelineText("rnaseq", 2),
        validation: { valid: true, errors: [] },
      });
      expect(saved.created_at).toBe(saved.updated_at);
      const named = await create(pipelineText("x"), { name: "My pipeline", visibility: "workspace" });
      expect(named).toMatchObject({ name: "My pipeline", visibility: "workspace" });
    });

    it("saves a draft with lint errors and returns its findings", async () => {
      const draft = await create('[workflow]\nname = "draft"\n\n[[rules]]\nname = "a"\ninput = ["missing-producer.txt"]\noutput = ["a.txt"]\nshell = "cat {input[0]} > {output[0]}"\n[[rules]]\nname = "a"\noutput = ["b.txt"]\nshell = "true"\n');
      expect(draft.validation.valid).toBe(false);
      expect(draft.validation.errors.length).toBeGreaterThan(0);
      expect(draft.validation.errors[0]).toMatchObject({ code: expect.any(String), severity: "error", message: expect.any(String) });
      expect((await json(await send("GET", `/api/pipelines/${draft.id}`))).toml_content).toContain("missing-producer.txt");
    });

    it("refuses text that does not parse or has no workflow name, naming the position, and saves nothing", async () => {
      const before = (await json(await send("GET", "/api/pipelines"))) as unknown as unknown[];
      const broken = await send("POST", "/api/pipelines", { toml_content: '[workflow]\nname = "x"\nversion = \n' });
      expect(broken.status).toBe(400);
      expect(await broken.json()).toMatchObject({ code: "PARSE_ERROR", message: expect.stringContaining("not valid TOML"), detail: expect.stringMatching(/^line 3, column \d+$/), suggestion: expect.any(String) });
      const nameless = await send("POST", "/api/pipelines", { toml_content: '[workflow]\nversion = "1"\n' });
      expect(await nameless.json()).toMatchObject({ code: "PARSE_ERROR", message: expect.stringContaining("[workflow] name") });
      expect(nameless.status).toBe(400);
      expect(await json(await send("POST", "/api/pipelines", { name: "no content" }))).toMatchObject({ code: "MISSING_FIELD", message: expect.stringContaining("toml_content") });
      expect(await json(await send("POST", "/api/pipelines", { toml_content: pipelineText("v"), visibility: "public" }))).toMatchObject({ code: "BAD_REQUEST", detail: expect.stringContaining("visibility") });
      expect((await json(await send("GET", "/api/pipelines"))) as unknown as unknown[]).toHaveLength(before.length);
    });

    it("reads one pipeline; unknown and draft ids are 404, tooling names answer 405", async () => {
      const saved = await create(pipelineText("readme"));
      expect(await json(await send("GET", `/api/pipelines/${saved.id}`))).toEqual(Object.fromEntries(Object.entries(saved).filter(([key]) => key !== "validation")));
      const missing = await send("GET", "/api/pipelines/6f1c2c1e-0000-4000-8000-000000000000");
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ code: "NOT_FOUND", suggestion: expect.stringContaining("draft") });
      const tooling = await send("GET", "/api/pipelines/validate");
      expect(tooling.status).toBe(405);
      expect(tooling.headers.get("allow")).toBe("POST");
    });

    it("updates as a new revision, keeps every revision, and rolls back", async () => {
      const saved = await create(pipelineText("evolving", 1));
      const renamed = await json(await send("PUT", `/api/pipelines/${saved.id}`, { name: "Evolving", tags: ["t"] }));
      expect(renamed).toMatchObject({ name: "Evolving", tags: ["t"], revision: 2, toml_content: saved.toml_content, validation: { valid: true } });
      const grown = await json(await send("PUT", `/api/pipelines/${saved.id}`, { toml_content: pipelineText("evolving", 3), revision: 2 }));
      expect(grown).toMatchObject({ revision: 3, rules_count: 3, version: "1.3.0", name: "Evolving" });
      expect(grown.updated_at >= saved.updated_at).toBe(true);

      const stale = await send("PUT", `/api/pipelines/${saved.id}`, { name: "late", revision: 2 });
      expect(stale.status).toBe(409);
      expect(await stale.json()).toMatchObject({ code: "CONFLICT" });
      const unparseable = await send("PUT", `/api/pipelines/${saved.id}`, { toml_content: "[[[" });
      expect(unparseable.status).toBe(400);
      expect(await json(await send("PUT", `/api/pipelines/${saved.id}`, {}))).toMatchObject({ code: "BAD_REQUEST", message: "nothing to change" });
      expect((await json(await send("GET", `/api/pipelines/${saved.id}`))).revision).toBe(3);

      const revisions = (await json(await send("GET", `/api/pipelines/${saved.id}/revisions`))) as unknown as Record<string, LooseJson>[];
      expect(revisions.map((revision) => [revision.revision, revision.name, revision.current])).toEqual([
        [3, "Evolving", true],
        [2, "Evolving", false],
        [1, "evolving", false],
      ]);
      expect(revisions[0]).not.toHaveProperty("toml_content");
      const first = await json(await send("GET", `/api/pipelines/${saved.id}/revisions/1`));
      expect(first).toMatchObject({ revision: 1, toml_content: pipelineText("evolving", 1), current: false });
      expect(await json(await send("GET", `/api/pipelines/${saved.id}/revisions/${revisions[2]!.id}`))).toEqual(first);
      expect((await send("GET", `/api/pipelines/${saved.id}/revisions/9`)).status).toBe(404);

      const restored = await json(await send("POST", `/api/pipelines/${saved.id}/rollback`, { revision_id: revisions[2]!.id }));
      expect(restored).toMatchObject({ revision: 4, name: "evolving", rules_count: 1, version: "1.1.0", toml_content: pipelineText("evolving", 1), validation: { valid: true } });
      expect(await json(await send("POST", `/api/pipelines/${saved.id}/rollback`, { revision_id: 3 }))).toMatchObject({ revision: 5, rules_count: 3 });
      expect((await send("POST", `/api/pipelines/${saved.id}/rollback`, { revision_id: 42 })).status).toBe(404);
      expect(await json(await send("POST", `/api/pipelines/${saved.id}/rollback`, {}))).toMatchObject({ code: "MISSING_FIELD" });
    });

    it("lists at most 100 pipelines, newest update first, without their text", async () => {
      const ids: string[] = [];
      for (let index = 0; index < 105; index++) ids.push((await create(pipelineText(`bulk-${index}`))).id);
      const listed = (await json(await send("GET", "/api/pipelines"))) as unknown as Record<string, LooseJson>[];
      expect(listed).toHaveLength(100);
      expect(listed[0]!.id).toBe(ids[104]);
      expect(listed[0]).not.toHaveProperty("toml_content");
      for (let index = 1; index < listed.length; index++) expect(listed[index - 1]!.updated_at >= listed[index]!.updated_at).toBe(true);
      await send("PUT", `/api/pipelines/${ids[0]}`, { tags: ["touched"] });
      const after = (await json(await send("GET", "/api/pipelines?limit=3"))) as unknown as Record<string, LooseJson>[];
      expect(after.map((pipeline) => pipeline.id)).toEqual([ids[0], ids[104], ids[103]]);
      expect(await json(await send("GET", "/api/pipelines?limit=101"))).toMatchObject({ code: "BAD_REQUEST" });
    });

    it("deletes a pipeline with its revisions", async () => {
      const saved = await create(pipelineText("doomed"));
      expect(await json(await send("DELETE", `/api/pipelines/${saved.id}`))).toEqual({ deleted: saved.id });
      expect((await send("GET", `/api/pipelines/${saved.id}`)).status).toBe(404);
      expect((await send("GET", `/api/pipelines/${saved.id}/revisions`)).status).toBe(404);
      expect((await send("DELETE", `/api/pipelines/${saved.id}`)).status).toBe(404);
    });

    it("searches pipelines and templates by name, tags and content, ranked", async () => {
      const byName = await create(pipelineText("salmon-quant"), { tags: ["transcriptomics"] });
      const byContent = await create(pipelineText("other", 1, "# uses salmon somewhere\n"));
      const result = await json(await send("POST", "/api/pipelines/search", { query: "salmon" }));
      const ids = result.hits.map((hit: { id: string }) => hit.id);
      expect(ids.indexOf(byName.id)).toBeGreaterThanOrEqual(0);
      expect(ids.indexOf(byName.id)).toBeLessThan(ids.indexOf(byContent.id));
      const top = result.hits[0];
      expect(top).toMatchObject({ id: byName.id, kind: "pipeline", name: "salmon-quant", snippet: expect.stringContaining("salmon"), score: expect.any(Number) });
      expect(result.hits.find((hit: { id: string }) => hit.id === byContent.id).snippet).toBe("# uses salmon somewhere");
      expect((await json(await send("POST", "/api/pipelines/search", { query: "transcriptomics" }))).hits[0].id).toBe(byName.id);
      const templates = await json(await send("POST", "/api/pipelines/search", { query: "tumour normal" }));
      expect(templates.hits[0]).toMatchObject({ kind: "template", score: expect.any(Number) });
      expect(templates.total).toBeGreaterThanOrEqual(templates.hits.length);
      // LIKE wildcards are matched literally, not as "anything".
      const literal = await create(pipelineText("percent", 1, "# 100_percent\n"));
      expect((await json(await send("POST", "/api/pipelines/search", { query: "1%0" }))).hits).toEqual([]);
      expect((await json(await send("POST", "/api/pipelines/search", { query: "0_p" }))).hits.map((hit: { id: string }) => hit.id)).toEqual([literal.id]);
      expect((await json(await send("POST", "/api/pipelines/search", { query: "salmon", limit: 1 }))).hits).toHaveLength(1);
      expect(await json(await send("POST", "/api/pipelines/search", { query: "   " }))).toMatchObject({ code: "SEARCH_ERROR" });
      expect(await json(await send("POST", "/api/pipelines/search", {}))).toMatchObject({ code: "MISSING_FIELD" });
    });

    it("never loses an update when many clients change one pipeline at once", async () => {
      const saved = await create(pipelineText("contended"));
      const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => send("PUT", `/api/pipelines/${saved.id}`, { tags: [`writer-${index}`] })));
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
      const revisions = (await json(await send("GET", `/api/pipelines/${saved.id}/revisions`))) as unknown as unknown[];
      expect(revisions).toHaveLength(21);
      expect((await json(await send("GET", `/api/pipelines/${saved.id}`))).revision).toBe(21);
      // With the revision they read, exactly one of several racing writers wins; the others are told.
      const racing = await Promise.all(Array.from({ length: 5 }, (_, index) => send("PUT", `/api/pipelines/${saved.id}`, { name: `racer-${index}`, revision: 21 })));
      expect(racing.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409]);
    });
  });
}
