/**
 * Templates over HTTP: the whole list (built-in ones with stable ids, then user templates), one by id, slug
 * or name, adding (it must parse; names are unique; the caller is recorded as its owner), deleting (built-in
 * ones refused).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtInId } from "../../../../src/server/domains/templates/service.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import type { LooseJson } from "../../../support/loose-json.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const BUILT_IN = ["hello-world", "file-chain", "sample-fanout", "scatter-gather", "rnaseq-quant", "germline-variants", "tumor-normal", "conditional-branches"];

let service: TestService;
const send = (method: string, path: string, body?: unknown) =>
  fetch(`${service.url}${path}`, { method, headers: body === undefined ? {} : { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
const json = async (response: Response) => (await response.json()) as LooseJson;

beforeAll(async () => (service = await startTestService({ rateLimit: 0 })));
afterAll(() => service.close());

describe("templates", () => {
  it("lists every built-in template with a stable UUID, its text and its lint-clean content", async () => {
    const list = (await json(await send("GET", "/api/templates"))) as LooseJson[];
    const slugs = list.filter((template) => template.builtin).map((template) => template.slug);
    expect(slugs).toEqual(expect.arrayContaining(BUILT_IN));
    for (const template of list.filter((entry) => entry.builtin)) {
      expect(template).toMatchObject({ id: expect.stringMatching(UUID), slug: expect.any(String), name: expect.any(String), title: expect.any(String), description: expect.any(String), builtin: true, toml_content: expect.stringContaining("[workflow]"), owner: null });
      expect(template.id).toBe(builtInId(template.slug));
      const lint = await json(await send("POST", "/api/pipelines/lint", { toml_content: template.toml_content }));
      expect(lint, template.slug).toMatchObject({ valid: true, errors: [], warnings: [] });
    }
    expect(new Set(list.map((template) => template.id)).size).toBe(list.length);
  });

  it("finds one template by id, slug or name", async () => {
    const list = (await json(await send("GET", "/api/templates"))) as LooseJson[];
    const hello = list.find((template) => template.slug === "hello-world");
    expect(await json(await send("GET", `/api/templates/${hello.id}`))).toEqual(hello);
    expect(await json(await send("GET", "/api/templates/hello-world"))).toEqual(hello);
    expect(await json(await send("GET", `/api/templates/${encodeURIComponent(hello.name)}`))).toEqual(hello);
    const missing = await send("GET", "/api/templates/no-such-template");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: "NOT_FOUND", suggestion: expect.stringContaining("GET /api/templates") });
  });

  it("adds a user template, lists it after the built-in ones, and deletes it", async () => {
    const toml = '[workflow]\nname = "lab-qc"\nversion = "1.0.0"\ndescription = "our lab QC"\n\n[[rules]]\nname = "qc"\noutput = ["qc.txt"]\nshell = "echo ok > {output[0]}"\n';
    const created = await send("POST", "/api/templates", { name: "Lab QC", toml_content: toml, tags: ["qc", "lab"] });
    expect(created.status).toBe(201);
    const template = await json(created);
    expect(template).toMatchObject({ id: expect.any(String), slug: null, name: "Lab QC", description: "our lab QC", tags: ["qc", "lab"], builtin: false, toml_content: toml, created_at: expect.any(String), owner: "local", validation: { valid: true } });
    const list = (await json(await send("GET", "/api/templates"))) as LooseJson[];
    expect(list.at(-1)).toMatchObject({ id: template.id, builtin: false });
    expect(await json(await send("GET", "/api/templates/Lab%20QC"))).toMatchObject({ id: template.id });

    const clash = await send("POST", "/api/templates", { name: "lab qc", toml_content: toml });
    expect(clash.status).toBe(409);
    expect(await clash.json()).toMatchObject({ code: "CONFLICT" });
    expect((await send("POST", "/api/templates", { name: "hello-world", toml_content: toml })).status).toBe(409);
    expect(await json(await send("POST", "/api/templates", { name: "broken", toml_content: "[workflow" }))).toMatchObject({ code: "PARSE_ERROR", detail: expect.stringMatching(/^line 1, column \d+$/) });
    expect(await json(await send("POST", "/api/templates", { toml_content: toml }))).toMatchObject({ code: "MISSING_FIELD", message: expect.stringContaining("name") });

    expect(await json(await send("DELETE", `/api/templates/${template.id}`))).toEqual({ deleted: template.id });
    expect((await send("GET", `/api/templates/${template.id}`)).status).toBe(404);
    expect((await send("DELETE", `/api/templates/${template.id}`)).status).toBe(404);
  });

  it("refuses to delete a built-in template", async () => {
    const refused = await send("DELETE", "/api/templates/hello-world");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "ACCESS_DENIED", message: expect.stringContaining("built-in") });
    expect((await send("GET", "/api/templates/hello-world")).status).toBe(200);
  });
});
