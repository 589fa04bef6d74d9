/**
 * The audit trail: every state-changing request is recorded once answered (who, what, on what, outcome,
 * client address), stateless checks and reads are not, request bodies never are, and GET /api/audit pages
 * through the log newest first with filters.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../../support/service-harness.js";
import type { LooseJson } from "../../support/loose-json.js";

let service: TestService;
const send = (method: string, path: string, body?: unknown) =>
  fetch(`${service.url}${path}`, { method, headers: body === undefined ? {} : { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
const json = async (response: Response) => (await response.json()) as LooseJson;
const TOML = '[workflow]\nname = "audited"\nversion = "1.0.0"\n\n[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "echo secret-in-body > {output[0]}"\n';

beforeAll(async () => (service = await startTestService({ rateLimit: 0, env: { SERVICE_CONFIG_DIR: "/nonexistent/strand-audit" } })));
afterAll(() => service.close());

describe("the audit trail", () => {
  it("records changes with action, resource, user, result and address; not reads, checks or bodies", async () => {
    const saved = await json(await send("POST", "/api/pipelines", { toml_content: TOML }));
    await send("PUT", `/api/pipelines/${saved.id}`, { name: "renamed" });
    await send("POST", "/api/pipelines/validate", { toml_content: TOML });
    await send("POST", "/api/pipelines/search", { query: "audited" });
    await send("GET", `/api/pipelines/${saved.id}`);
    await send("PUT", "/api/pipelines/6f1c2c1e-0000-4000-8000-000000000000", { name: "ghost" });
    await send("POST", "/api/license/upload", { license_data: "not-a-license secret-in-body" });
    await send("DELETE", `/api/pipelines/${saved.id}`);

    const page = await json(await send("GET", "/api/audit"));
    expect(page.next_cursor).toBeNull();
    expect(page.items.map((entry: LooseJson) => [entry.action, entry.result])).toEqual([
      ["pipeline.delete", "success"],
      ["license.upload", "failure"],
      ["pipeline.update", "failure"],
      ["pipeline.update", "success"],
      ["pipeline.create", "success"],
    ]);
    expect(page.items[4]).toEqual({ id: expect.any(String), time: expect.any(String), user: "local", action: "pipeline.create", resource: `pipeline/${saved.id}`, result: "success", ip: expect.stringContaining("127.0.0.1") });
    expect(JSON.stringify(page)).not.toContain("secret-in-body");
  });

  it("pages newest first and filters by user and action", async () => {
    for (let index = 0; index < 4; index++) await send("POST", "/api/templates", { name: `t${index}`, toml_content: TOML });
    const first = await json(await send("GET", "/api/audit?limit=2&action=template.create"));
    expect(first.items).toHaveLength(2);
    expect(first.items.every((entry: LooseJson) => entry.action === "template.create")).toBe(true);
    const second = await json(await send("GET", `/api/audit?limit=2&action=template.create&cursor=${encodeURIComponent(first.next_cursor)}`));
    expect(second.items).toHaveLength(2);
    expect(second.next_cursor).toBeNull();
    expect(second.items[0].time <= first.items[1].time).toBe(true);
    expect((await json(await send("GET", "/api/audit?user=local"))).items.length).toBeGreaterThan(4);
    expect((await json(await send("GET", "/api/audit?user=someone-else"))).items).toEqual([]);
    expect(await json(await send("GET", "/api/audit?cursor=not-a-cursor"))).toMatchObject({ code: "BAD_REQUEST" });
    expect(await json(await send("GET", "/api/audit?limit=0"))).toMatchObject({ code: "BAD_REQUEST" });
  });
});
