/**
 * Saved pipelines over HTTP, on both stores: create (with the lint result; unparseable text refused with
 * its position), list (at most 100, newest update first), read, update with revisions, optimistic
 * concurrency and rollback, delete, search over pipelines and templates, and no lost updates when many
 * clients change one pipeline at once. Well-formed requests go through the typed client; the ones it cannot
 * express (missing required fields, values the document does not allow, undocumented methods) are raw.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectData, type components, type ServiceClient } from "../../../../src/client/service-client.js";
import { call, serviceClient } from "../../../support/run-client.js";
import { serviceStores, type OpenedStore } from "../../../support/service-stores.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function pipelineText(name: string, rules = 1, extra = ""): string {
  const body = Array.from({ length: rules }, (_, index) => `[[rules]]\nname = "step${index}"\noutput = ["out${index}.txt"]\nshell = "echo ${index} > {output[0]}"\n`).join("\n");
  return `[workflow]\nname = "${name}"\nversion = "1.${rules}.0"\ndescription = "the ${name} pipeline"\n${extra}\n${body}`;
}

for (const kind of await serviceStores()) {
  describe(`saved pipelines (${kind.name})`, () => {
    let opened: OpenedStore;
    let service: TestService;
    let client: ServiceClient;
    const create = async (toml: string, extra: Omit<components["schemas"]["CreatePipeline"], "toml_content"> = {}) => {
      const answer = await client.POST("/api/pipelines", { body: { toml_content: toml, ...extra } });
      expect(answer.response.status).toBe(201);
      return expectData(answer);
    };
    const read = (id: string) => client.GET("/api/pipelines/{id}", { params: { path: { id } } });
    const update = (id: string, body: components["schemas"]["UpdatePipeline"]) => client.PUT("/api/pipelines/{id}", { params: { path: { id } }, body });
    const list = async (limit?: number) => expectData(await client.GET("/api/pipelines", { params: { query: limit === undefined ? {} : { limit } } }));
    const revisionsOf = (id: string) => client.GET("/api/pipelines/{id}/revisions", { params: { path: { id } } });
    const revision = (id: string, rev: string) => client.GET("/api/pipelines/{id}/revisions/{rev}", { params: { path: { id, rev } } });
    const rollback = (id: string, revision_id: string | number) => client.POST("/api/pipelines/{id}/rollback", { params: { path: { id } }, body: { revision_id } });
    const search = (body: components["schemas"]["SearchQuery"]) => client.POST("/api/pipelines/search", { body });
    const hitsOf = async (body: components["schemas"]["SearchQuery"]) => expectData(await search(body)).hits;

    beforeAll(async () => {
      opened = await kind.open();
      service = await startTestService({ store: opened.store, rateLimit: 0 });
      client = serviceClient(service.url);
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
      expect(expectData(await read(draft.id)).toml_content).toContain("missing-producer.txt");
    });

    it("refuses text that does not parse or has no workflow name, naming the position, and saves nothing", async () => {
      const before = await list();
      const broken = await client.POST("/api/pipelines", { body: { toml_content: '[workflow]\nname = "x"\nversion = \n' } });
      expect(broken.response.status).toBe(400);
      expect(broken.error).toMatchObject({ code: "PARSE_ERROR", message: expect.stringContaining("not valid TOML"), detail: expect.stringMatching(/^line 3, column \d+$/), suggestion: expect.any(String) });
      const nameless = await client.POST("/api/pipelines", { body: { toml_content: '[workflow]\nversion = "1"\n' } });
      expect(nameless.error).toMatchObject({ code: "PARSE_ERROR", message: expect.stringContaining("[workflow] name") });
      expect(nameless.response.status).toBe(400);
      // Without the required toml_content, and with a visibility the document does not list: raw requests.
      expect((await call(service.url, "POST", "/api/pipelines", { name: "no content" })).body).toMatchObject({ code: "MISSING_FIELD", message: expect.stringContaining("toml_content") });
      expect((await call(service.url, "POST", "/api/pipelines", { toml_content: pipelineText("v"), visibility: "public" })).body).toMatchObject({ code: "BAD_REQUEST", detail: expect.stringContaining("visibility") });
      expect(await list()).toHaveLength(before.length);
    });

    it("reads one pipeline; unknown and draft ids are 404, tooling names answer 405", async () => {
      const saved = await create(pipelineText("readme"));
      expect(expectData(await read(saved.id))).toEqual(Object.fromEntries(Object.entries(saved).filter(([key]) => key !== "validation")));
      const missing = await read("6f1c2c1e-0000-4000-8000-000000000000");
      expect(missing.response.status).toBe(404);
      expect(missing.error).toMatchObject({ code: "NOT_FOUND", suggestion: expect.stringContaining("draft") });
      // GET of a tooling path is not in the document (only POST is): a raw request.
      const tooling = await fetch(`${service.url}/api/pipelines/validate`);
      expect(tooling.status).toBe(405);
      expect(tooling.headers.get("allow")).toBe("POST");
    });

    it("updates as a new revision, keeps every revision, and rolls back", async () => {
      const saved = await create(pipelineText("evolving", 1));
      const renamed = expectData(await update(saved.id, { name: "Evolving", tags: ["t"] }));
      expect(renamed).toMatchObject({ name: "Evolving", tags: ["t"], revision: 2, toml_content: saved.toml_content, validation: { valid: true } });
      const grown = expectData(await update(saved.id, { toml_content: pipelineText("evolving", 3), revision: 2 }));
      expect(grown).toMatchObject({ revision: 3, rules_count: 3, version: "1.3.0", name: "Evolving" });
      expect(grown.updated_at >= saved.updated_at).toBe(true);

      const stale = await update(saved.id, { name: "late", revision: 2 });
      expect(stale.response.status).toBe(409);
      expect(stale.error).toMatchObject({ code: "CONFLICT" });
      const unparseable = await update(saved.id, { toml_content: "[[[" });
      expect(unparseable.response.status).toBe(400);
      expect((await update(saved.id, {})).error).toMatchObject({ code: "BAD_REQUEST", message: "nothing to change" });
      expect(expectData(await read(saved.id)).revision).toBe(3);

      const revisions = expectData(await revisionsOf(saved.id));
      expect(revisions.map((revision) => [revision.revision, revision.name, revision.current])).toEqual([
        [3, "Evolving", true],
        [2, "Evolving", false],
        [1, "evolving", false],
      ]);
      expect(revisions[0]).not.toHaveProperty("toml_content");
      const first = expectData(await revision(saved.id, "1"));
      expect(first).toMatchObject({ revision: 1, toml_content: pipelineText("evolving", 1), current: false });
      expect(expectData(await revision(saved.id, revisions[2]!.id))).toEqual(first);
      expect((await revision(saved.id, "9")).response.status).toBe(404);

      const restored = expectData(await rollback(saved.id, revisions[2]!.id));
      expect(restored).toMatchObject({ revision: 4, name: "evolving", rules_count: 1, version: "1.1.0", toml_content: pipelineText("evolving", 1), validation: { valid: true } });
      expect(expectData(await rollback(saved.id, 3))).toMatchObject({ revision: 5, rules_count: 3 });
      expect((await rollback(saved.id, 42)).response.status).toBe(404);
      // Without the required revision_id: a raw request.
      expect((await call(service.url, "POST", `/api/pipelines/${saved.id}/rollback`, {})).body).toMatchObject({ code: "MISSING_FIELD" });
    });

    it("lists at most 100 pipelines, newest update first, without their text", async () => {
      const ids: string[] = [];
      for (let index = 0; index < 105; index++) ids.push((await create(pipelineText(`bulk-${index}`))).id);
      const listed = await list();
      expect(listed).toHaveLength(100);
      expect(listed[0]!.id).toBe(ids[104]);
      expect(listed[0]).not.toHaveProperty("toml_content");
      for (let index = 1; index < listed.length; index++) expect(listed[index - 1]!.updated_at >= listed[index]!.updated_at).toBe(true);
      await update(ids[0]!, { tags: ["touched"] });
      const after = await list(3);
      expect(after.map((pipeline) => pipeline.id)).toEqual([ids[0], ids[104], ids[103]]);
      expect((await client.GET("/api/pipelines", { params: { query: { limit: 101 } } })).error).toMatchObject({ code: "BAD_REQUEST" });
    });

    it("deletes a pipeline with its revisions", async () => {
      const saved = await create(pipelineText("doomed"));
      const remove = () => client.DELETE("/api/pipelines/{id}", { params: { path: { id: saved.id } } });
      expect((await remove()).data).toEqual({ deleted: saved.id });
      expect((await read(saved.id)).response.status).toBe(404);
      expect((await revisionsOf(saved.id)).response.status).toBe(404);
      expect((await remove()).response.status).toBe(404);
    });

    it("searches pipelines and templates by name, tags and content, ranked", async () => {
      const byName = await create(pipelineText("salmon-quant"), { tags: ["transcriptomics"] });
      const byContent = await create(pipelineText("other", 1, "# uses salmon somewhere\n"));
      const result = expectData(await search({ query: "salmon" }));
      const ids = result.hits.map((hit) => hit.id);
      expect(ids.indexOf(byName.id)).toBeGreaterThanOrEqual(0);
      expect(ids.indexOf(byName.id)).toBeLessThan(ids.indexOf(byContent.id));
      const top = result.hits[0];
      expect(top).toMatchObject({ id: byName.id, kind: "pipeline", name: "salmon-quant", snippet: expect.stringContaining("salmon"), score: expect.any(Number) });
      expect(result.hits.find((hit) => hit.id === byContent.id)?.snippet).toBe("# uses salmon somewhere");
      expect((await hitsOf({ query: "transcriptomics" }))[0]?.id).toBe(byName.id);
      const templates = expectData(await search({ query: "tumour normal" }));
      expect(templates.hits[0]).toMatchObject({ kind: "template", score: expect.any(Number) });
      expect(templates.total).toBeGreaterThanOrEqual(templates.hits.length);
      // LIKE wildcards are matched literally, not as "anything".
      const literal = await create(pipelineText("percent", 1, "# 100_percent\n"));
      expect(await hitsOf({ query: "1%0" })).toEqual([]);
      expect((await hitsOf({ query: "0_p" })).map((hit) => hit.id)).toEqual([literal.id]);
      expect(await hitsOf({ query: "salmon", limit: 1 })).toHaveLength(1);
      expect((await search({ query: "   " })).error).toMatchObject({ code: "SEARCH_ERROR" });
      // Without the required query: a raw request.
      expect((await call(service.url, "POST", "/api/pipelines/search", {})).body).toMatchObject({ code: "MISSING_FIELD" });
    });

    it("never loses an update when many clients change one pipeline at once", async () => {
      const saved = await create(pipelineText("contended"));
      const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => update(saved.id, { tags: [`writer-${index}`] })));
      expect(answers.map((answer) => answer.response.status)).toEqual(Array(20).fill(200));
      expect(expectData(await revisionsOf(saved.id))).toHaveLength(21);
      expect(expectData(await read(saved.id)).revision).toBe(21);
      // With the revision they read, exactly one of several racing writers wins; the others are told.
      const racing = await Promise.all(Array.from({ length: 5 }, (_, index) => update(saved.id, { name: `racer-${index}`, revision: 21 })));
      expect(racing.map((answer) => answer.response.status).sort()).toEqual([200, 409, 409, 409, 409]);
    });
  });
}
