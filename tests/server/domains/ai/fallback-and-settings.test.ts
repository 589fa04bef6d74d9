/**
 * The provider chain end to end, each provider a local server speaking its own protocol: the caller's own
 * provider first, then the shared one, then a discovered one, then the local runner; and the settings
 * behind it — keys sealed at rest and never shown, scopes, and who may change the shared provider.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgetTranslations } from "../../../../src/server/domains/ai/translate.js";
import { startProtocolServer, type ProtocolServer } from "../../../support/ai-protocol-servers.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import { startTeamService, type TeamService } from "../../../support/team-service.js";
import { fenced, post, sseEvents, VALID_DRAFT } from "../../../support/ai-drafts.js";

const SECRET = randomBytes(32).toString("base64");

describe("the chain, through four local protocol servers", () => {
  let own: ProtocolServer; // the caller's own: OpenAI protocol
  let shared: ProtocolServer; // the shared one: Anthropic protocol
  let discovered: ProtocolServer; // DeepSeek, discovered from DEEPSEEK_API_KEY: OpenAI protocol
  let local: ProtocolServer; // Ollama
  let service: TestService;

  beforeAll(async () => {
    [own, shared, discovered, local] = await Promise.all([startProtocolServer("openai"), startProtocolServer("anthropic"), startProtocolServer("openai"), startProtocolServer("ollama")]);
    service = await startTestService({ env: { SERVICE_SECRET_KEY: SECRET, DEEPSEEK_API_KEY: "deep-key", DEEPSEEK_BASE_URL: discovered.baseUrl, OLLAMA_HOST: local.origin, OLLAMA_MODEL: "llama-test" } });
    const asShared = await post(service, "/api/ai/config", { provider: "claude", api_key: "shared-key", api_url: shared.baseUrl, model: "claude-test", scope: "server" });
    expect(asShared.status).toBe(200);
    const asOwn = await post(service, "/api/ai/config", { provider: "openai", api_key: "own-key", api_url: own.baseUrl, model: "gpt-test", scope: "user" });
    expect(asOwn.status).toBe(200);
  });
  afterAll(async () => {
    await service?.close();
    await Promise.all([own, shared, discovered, local].map((server) => server?.close()));
  });

  it("shows the chain in order, without any key", async () => {
    const response = await fetch(`${service.url}/api/ai/config`);
    const text = await response.text();
    expect(text).not.toContain("own-key");
    expect(text).not.toContain("shared-key");
    expect(text).not.toContain("deep-key");
    const config = JSON.parse(text);
    expect(config.chain.map((entry: { source: string; provider: string }) => `${entry.source}:${entry.provider}`)).toEqual(["user:openai", "server:anthropic", "discovered:deepseek", "local:ollama"]);
    expect(config).toMatchObject({ provider: "openai", model: "gpt-test", is_configured: true, source: "user" });
    expect(config.user).toMatchObject({ provider: "openai", has_api_key: true });
    expect(config.server).toMatchObject({ provider: "anthropic", has_api_key: true, model: "claude-test" });
  });

  it("keeps keys sealed at rest", async () => {
    const stored = await service.store.getAiSettings("server");
    expect(stored?.sealed_api_key).toMatch(/^v1:/);
    expect(JSON.stringify(stored)).not.toContain("shared-key");
  });

  it("falls back in chain order, each failure named in the stream, until one provider answers", async () => {
    forgetTranslations();
    own.script({ status: 401 });
    shared.script({ status: 429, headers: { "retry-after-ms": "0" } });
    discovered.script({ text: fenced(VALID_DRAFT) });
    const before = local.requests.length;
    const response = await post(service, "/api/ai/translate/stream", { intent: "align and sort reads, with fallbacks" });
    const events = sseEvents(await response.text());
    const fallbacks = events.filter((entry) => entry.event === "progress" && entry.data.step === "fallback").map((entry) => entry.data);
    expect(fallbacks.map((entry) => entry.provider)).toEqual(["anthropic", "deepseek"]);
    expect(fallbacks[0].message).toMatch(/^openai \(gpt-test\): the provider refused the credentials \(HTTP 401\)/);
    expect(fallbacks[1].message).toMatch(/^anthropic \(claude-test\): rate limited/);
    const done = events.find((entry) => entry.event === "done")!.data;
    expect(done.provider).toEqual({ provider: "deepseek", model: "deepseek-chat" });
    expect(own.requests.at(-1)!.headers.authorization).toBe("Bearer own-key");
    expect(shared.requests.at(-1)!.headers["x-api-key"]).toBe("shared-key");
    expect(discovered.requests.at(-1)!.headers.authorization).toBe("Bearer deep-key");
    expect(local.requests.length).toBe(before); // never reached
  });

  it("reaches the local runner last, and fails naming every provider when none answers", async () => {
    forgetTranslations();
    own.script({ status: 500 });
    shared.script({ status: 500 });
    discovered.script({ status: 500 });
    local.script({ text: fenced(VALID_DRAFT) });
    const draft = await (await post(service, "/api/ai/translate", { intent: "align and sort reads, locally" })).json();
    expect(draft.provider).toEqual({ provider: "ollama", model: "llama-test" });

    own.script({ status: 500 });
    shared.script({ status: 500 });
    discovered.script({ status: 500 });
    local.script({ status: 500 });
    const failed = await post(service, "/api/ai/translate", { intent: "an rnaseq quantification that no provider writes" });
    expect(failed.status).toBe(400);
    const body = await failed.json();
    expect(body.code).toBe("AI_TRANSLATE_ERROR");
    for (const name of ["openai", "anthropic", "deepseek", "ollama"]) expect(body.message).toContain(name);
    expect(body.suggestion).toMatch(/^Try the rnaseq-quant template/);
  });

  it("tests the first provider only, saying why it failed", async () => {
    own.script({ status: 401 });
    const failed = await (await post(service, "/api/ai/test", {})).json();
    expect(failed).toMatchObject({ success: false, provider: "openai", model: "gpt-test" });
    expect(failed.message).toMatch(/^Test failed: .*HTTP 401/);
    own.script({ text: "OK" });
    const passed = await (await post(service, "/api/ai/test", {})).json();
    expect(passed).toMatchObject({ success: true, message: "Test successful: OK", provider: "openai" });
  });

  it("refuses unknown providers and unusable settings, and keeps a stored key when only the model changes", async () => {
    const unknown = await post(service, "/api/ai/config", { provider: "noop", scope: "user" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).suggestion).toContain("anthropic");
    const keyless = await post(service, "/api/ai/config", { provider: "deepseek", scope: "user" });
    expect(keyless.status).toBe(400);
    const modelOnly = await post(service, "/api/ai/config", { provider: "openai", model: "gpt-other", api_url: own.baseUrl, scope: "user" });
    expect(modelOnly.status).toBe(200);
    expect((await modelOnly.json()).user).toMatchObject({ model: "gpt-other", has_api_key: true });
    const badUrl = await post(service, "/api/ai/config", { provider: "openai", api_url: "ftp://example.org", scope: "user" });
    expect(badUrl.status).toBe(400);
  });
});

describe("AI settings in a team", () => {
  let team: TeamService;
  let provider: ProtocolServer;
  beforeAll(async () => {
    provider = await startProtocolServer("anthropic");
    team = await startTeamService({ env: { SERVICE_SECRET_KEY: SECRET } });
  });
  afterAll(async () => {
    await team?.close();
    await provider?.close();
  });

  it("lets only administrators change the shared provider; users keep their own, private addresses refused", async () => {
    const refused = await team.call("user", "POST", "/api/ai/config", { body: { provider: "anthropic", api_key: "k", scope: "server" } });
    expect(refused.status).toBe(403);
    const privateUrl = await team.call("user", "POST", "/api/ai/config", { body: { provider: "anthropic", api_key: "k", api_url: provider.baseUrl } });
    expect(privateUrl.status).toBe(400);
    expect(privateUrl.body.code).toBe("INVALID_URL");
    const own = await team.call("user", "POST", "/api/ai/config", { body: { provider: "anthropic", api_key: "users-own-key" } });
    expect(own.status).toBe(200);
    expect(own.body.user).toMatchObject({ provider: "anthropic", has_api_key: true });
    expect(own.text).not.toContain("users-own-key");
    // An administrator's URL may be private (the shared provider may well be a local server).
    const shared = await team.call("admin", "POST", "/api/ai/config", { body: { provider: "anthropic", api_key: "shared", api_url: provider.baseUrl } });
    expect(shared.status).toBe(200);
    // Another user sees the shared provider, not the first user's own.
    const other = await team.call("other", "GET", "/api/ai/config");
    expect((other.body.chain as { source: string }[]).map((entry) => entry.source)).toEqual(["server"]);
    expect(other.body.user).toBeNull();
    expect(other.body.can_change_server).toBe(false);
    // The user's own comes first for them.
    const mine = await team.call("user", "GET", "/api/ai/config");
    expect((mine.body.chain as { source: string }[]).map((entry) => entry.source)).toEqual(["user", "server"]);
  });
});

describe("a provider that does not answer in time", () => {
  let slow: ProtocolServer;
  let quick: ProtocolServer;
  let service: TestService;
  beforeAll(async () => {
    [slow, quick] = await Promise.all([startProtocolServer("anthropic"), startProtocolServer("openai")]);
    service = await startTestService({
      aiTimeoutMs: 400,
      env: { SERVICE_AI_PROVIDER: "anthropic", SERVICE_AI_API_KEY: "k", SERVICE_AI_API_URL: slow.baseUrl, OPENAI_API_KEY: "o", OPENAI_BASE_URL: quick.baseUrl },
    });
  });
  afterAll(async () => {
    await service?.close();
    await Promise.all([slow, quick].map((server) => server?.close()));
  });

  it("is given up on after SERVICE_AI_TIMEOUT, its request cancelled, and the next provider answers", async () => {
    forgetTranslations();
    slow.script({ text: fenced(VALID_DRAFT), delayMs: 5000 });
    quick.script({ text: fenced(VALID_DRAFT) });
    const index = slow.requests.length;
    const events = sseEvents(await (await post(service, "/api/ai/translate/stream", { intent: "align and sort, in time" })).text());
    const fallback = events.find((entry) => entry.event === "progress" && entry.data.step === "fallback")!.data;
    expect(fallback.message).toMatch(/^anthropic \(claude-sonnet-4-5\): no complete answer within 400 ms \(SERVICE_AI_TIMEOUT\); trying openai/);
    expect(events.find((entry) => entry.event === "done")!.data.provider.provider).toBe("openai");
    expect((await slow.settled(index)).aborted).toBe(true);
  });
});
