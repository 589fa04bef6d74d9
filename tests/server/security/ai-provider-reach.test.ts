/**
 * Where AI provider calls may go (issue 25, finding 8). A user's own provider URL is checked when it is saved;
 * each call resolves the host once more, checks every address by the same rule and connects to that address
 * only (a name that rebinds to the loopback between the save and the call is refused, never contacted), and
 * no call follows a redirect: a 307 is a failed call that names the redirect, and the chain moves on. The
 * operator's providers from the environment may be local (their choice), but are not followed elsewhere either.
 * The providers are local servers speaking the real protocols; host names are resolved by a lookup the test
 * controls (the service's option for it; production uses the system resolver).
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AddressLookup } from "../../../src/engine/public-address.js";
import { forgetTranslations } from "../../../src/server/domains/ai/translate.js";
import { startProtocolServer, type ProtocolServer } from "../../support/ai-protocol-servers.js";
import { fenced, post, sseEvents, VALID_DRAFT } from "../../support/ai-drafts.js";
import { startTestService, type TestService } from "../../support/service-harness.js";
import { startTeamService, type TeamService } from "../../support/team-service.js";

const SECRET = randomBytes(32).toString("base64");

/** A lookup that answers the scripted addresses for `name` (one answer per lookup, the last one repeated), and records each lookup. */
function scriptedLookup(name: string, answers: string[][]): AddressLookup & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (hostname: string) => {
    asked.push(hostname);
    if (hostname !== name) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    const count = asked.filter((host) => host === name).length;
    const addresses = answers[Math.min(count, answers.length) - 1]!;
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(lookup, { asked });
}

const portOf = (server: ProtocolServer) => new URL(server.origin).port;

describe("a user's own provider that redirects", () => {
  let front: ProtocolServer; // the user's own provider: answers every call with a 307
  let target: ProtocolServer; // where the 307 points: must never be contacted
  let shared: ProtocolServer; // the administrator's shared provider: the chain's next candidate
  let team: TeamService;
  beforeAll(async () => {
    [front, target, shared] = await Promise.all([startProtocolServer("anthropic"), startProtocolServer("anthropic"), startProtocolServer("openai")]);
    front.script(...Array.from({ length: 4 }, () => ({ redirectTo: `${target.baseUrl}/messages` })));
    // Private addresses allowed for users' own URLs, so the local server can be saved: the redirect is what is refused.
    team = await startTeamService({ env: { SERVICE_SECRET_KEY: SECRET, SERVICE_AI_ALLOW_PRIVATE_URLS: "1" } });
    expect((await team.call("admin", "POST", "/api/ai/config", { body: { provider: "openai", api_key: "shared-key", api_url: shared.baseUrl, scope: "server" } })).status).toBe(200);
    expect((await team.call("user", "POST", "/api/ai/config", { body: { provider: "anthropic", api_key: "own-key", api_url: front.baseUrl, scope: "user" } })).status).toBe(200);
  });
  afterAll(async () => {
    await team?.close();
    await Promise.all([front, target, shared].map((server) => server?.close()));
  });

  it("is not followed: the test call fails naming the redirect, and the address it points to is never contacted", async () => {
    const answer = await team.call("user", "POST", "/api/ai/test");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: false, provider: "anthropic" });
    expect(answer.body.message).toMatch(/redirect \(307\)/);
    expect(answer.body.message).toMatch(/not followed/);
    expect(front.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
  });

  it("is a provider failure like any other: the chain moves on to the shared provider", async () => {
    forgetTranslations();
    shared.script({ text: fenced(VALID_DRAFT) });
    const response = await fetch(`${team.url}/api/ai/translate/stream`, {
      method: "POST",
      headers: { authorization: `Bearer ${team.tokens.user}`, "content-type": "application/json" },
      body: JSON.stringify({ intent: "align reads, never by way of a redirect" }),
    });
    const events = sseEvents(await response.text());
    const fallback = events.find((entry) => entry.event === "progress" && entry.data.step === "fallback");
    expect(fallback?.data.message).toMatch(/^anthropic \(claude-sonnet-4-5\): .*redirect \(307\).*; trying openai$/);
    expect(events.find((entry) => entry.event === "done")?.data.provider.provider).toBe("openai");
    expect(target.requests).toHaveLength(0);
  });
});

describe("the operator's provider from the environment", () => {
  let front: ProtocolServer;
  let target: ProtocolServer;
  let service: TestService;
  beforeAll(async () => {
    [front, target] = await Promise.all([startProtocolServer("openai"), startProtocolServer("openai")]);
    service = await startTestService({ env: { SERVICE_AI_PROVIDER: "openai", SERVICE_AI_API_KEY: "env-key", SERVICE_AI_API_URL: front.baseUrl } });
  });
  afterAll(async () => {
    await service?.close();
    await Promise.all([front, target].map((server) => server?.close()));
  });

  it("may be on the loopback, but its redirects are refused too", async () => {
    front.script({ text: "OK" }, { redirectTo: `${target.baseUrl}/chat/completions` });
    const first = await (await post(service, "/api/ai/test", {})).json();
    expect(first).toMatchObject({ success: true, provider: "openai" });
    const second = await (await post(service, "/api/ai/test", {})).json();
    expect(second.success).toBe(false);
    expect(second.message).toMatch(/redirect \(307\)/);
    expect(target.requests).toHaveLength(0);
  });
});

describe("a user's own provider whose name changes its address after the save (DNS rebinding)", () => {
  let target: ProtocolServer; // on the loopback: where the rebound name points
  let team: TeamService;
  let lookup: ReturnType<typeof scriptedLookup>;
  beforeAll(async () => {
    target = await startProtocolServer("anthropic");
    // `localhost` stands for an attacker's name: public when saved, the loopback afterwards (the system resolver agrees).
    lookup = scriptedLookup("localhost", [["93.184.215.14"], ["127.0.0.1"]]);
    team = await startTeamService({ env: { SERVICE_SECRET_KEY: SECRET }, aiProviderLookup: lookup });
  });
  afterAll(async () => {
    await team?.close();
    await target?.close();
  });

  it("is checked again at each call: the loopback address is refused, named, and never contacted", async () => {
    target.script({ text: "LEAKED" });
    const saved = await team.call("user", "POST", "/api/ai/config", { body: { provider: "anthropic", api_key: "own-key", api_url: `http://localhost:${portOf(target)}/v1`, scope: "user" } });
    expect(saved.status).toBe(200);
    const answer = await team.call("user", "POST", "/api/ai/test");
    expect(answer.body).toMatchObject({ success: false, provider: "anthropic" });
    expect(answer.body.message).toMatch(/127\.0\.0\.1, a loopback address/);
    expect(target.requests).toHaveLength(0);
  });
});

describe("a user's own provider reached by name", () => {
  let provider: ProtocolServer;
  let team: TeamService;
  let lookup: ReturnType<typeof scriptedLookup>;
  beforeAll(async () => {
    provider = await startProtocolServer("anthropic");
    // A name the system resolver does not know: the call can reach the server only through the address checked for it.
    lookup = scriptedLookup("ai-provider.test", [["127.0.0.1"]]);
    team = await startTeamService({ env: { SERVICE_SECRET_KEY: SECRET, SERVICE_AI_ALLOW_PRIVATE_URLS: "1" }, aiProviderLookup: lookup });
  });
  afterEach(() => {
    lookup.asked.length = 0;
  });
  afterAll(async () => {
    await team?.close();
    await provider?.close();
  });

  it("is resolved once per call and connected to the checked address, the request still naming the host", async () => {
    const saved = await team.call("user", "POST", "/api/ai/config", { body: { provider: "anthropic", api_key: "own-key", api_url: `http://ai-provider.test:${portOf(provider)}/v1`, scope: "user" } });
    expect(saved.status).toBe(200);
    lookup.asked.length = 0;
    provider.script({ text: "OK" });
    const answer = await team.call("user", "POST", "/api/ai/test");
    expect(answer.body).toMatchObject({ success: true, message: "Test successful: OK" });
    expect(lookup.asked).toEqual(["ai-provider.test"]);
    expect(provider.requests.at(-1)?.headers.host).toBe(`ai-provider.test:${portOf(provider)}`);
    expect(provider.requests.at(-1)?.headers["x-api-key"]).toBe("own-key");
  });
});
