/**
 * Who sees where the shared AI providers are (issue 25, finding 11: viewers saw the shared provider's URL).
 * GET /api/ai/config shows the URL of the shared provider, and of the operator's and discovered ones, only to
 * administrators; users see their own provider's URL and null for the others, viewers null for all.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTeamService, type TeamService } from "../../../support/team-service.js";

const SHARED_URL = "http://10.1.2.3:8080/v1";
const DISCOVERED_URL = "http://10.9.9.9:8000/v1";
const OWN_URL = "https://8.8.8.8/v1";

interface Entry {
  source: string;
  api_url: string | null;
}

describe("the AI settings' URLs in a team", () => {
  let team: TeamService;
  beforeAll(async () => {
    team = await startTeamService({ env: { SERVICE_SECRET_KEY: randomBytes(32).toString("base64"), OPENAI_API_KEY: "discovered-key", OPENAI_BASE_URL: DISCOVERED_URL } });
    expect((await team.call("admin", "POST", "/api/ai/config", { body: { provider: "anthropic", api_key: "shared-key", api_url: SHARED_URL, scope: "server" } })).status).toBe(200);
    expect((await team.call("user", "POST", "/api/ai/config", { body: { provider: "deepseek", api_key: "own-key", api_url: OWN_URL, scope: "user" } })).status).toBe(200);
  });
  afterAll(async () => {
    await team?.close();
  });

  it("are all shown to an administrator", async () => {
    const view = await team.call("admin", "GET", "/api/ai/config");
    expect((view.body.chain as Entry[]).map((entry) => [entry.source, entry.api_url])).toEqual([
      ["server", SHARED_URL],
      ["discovered", DISCOVERED_URL],
    ]);
    expect(view.body).toMatchObject({ api_url: SHARED_URL, server: { api_url: SHARED_URL } });
  });

  it("show a user their own provider's URL and no other", async () => {
    const view = await team.call("user", "GET", "/api/ai/config");
    expect((view.body.chain as Entry[]).map((entry) => [entry.source, entry.api_url])).toEqual([
      ["user", OWN_URL],
      ["server", null],
      ["discovered", null],
    ]);
    expect(view.body).toMatchObject({ api_url: OWN_URL, user: { api_url: OWN_URL }, server: { provider: "anthropic", api_url: null } });
    expect(view.text).not.toMatch(/10\.1\.2\.3|10\.9\.9\.9/);
  });

  it("show a viewer none", async () => {
    const view = await team.call("viewer", "GET", "/api/ai/config");
    expect((view.body.chain as Entry[]).map((entry) => [entry.source, entry.api_url])).toEqual([
      ["server", null],
      ["discovered", null],
    ]);
    expect(view.body).toMatchObject({ provider: "anthropic", api_url: null, server: { provider: "anthropic", api_url: null }, user: null });
    expect(view.text).not.toMatch(/10\.1\.2\.3|10\.9\.9\.9/);
  });
});
