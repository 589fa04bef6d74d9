/**
 * Translate against a local server speaking the Anthropic Messages protocol (reached through the
 * base-URL setting): the correction loop, the stream's steps, the dedup cache, cancellation when the
 * client leaves, and AI_NOT_CONFIGURED when no provider is usable.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { forgetTranslations } from "../../../../src/server/domains/ai/translate.js";
import { startProtocolServer, type ProtocolServer } from "../../../support/ai-protocol-servers.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import { fenced, INVALID_DRAFT, post, sseEvents, VALID_DRAFT } from "../../../support/ai-drafts.js";

describe("translate through a local Anthropic-protocol server", () => {
  let anthropic: ProtocolServer;
  let service: TestService;

  beforeAll(async () => {
    anthropic = await startProtocolServer("anthropic");
    service = await startTestService({ env: { SERVICE_AI_PROVIDER: "anthropic", SERVICE_AI_API_KEY: "test-key", SERVICE_AI_API_URL: anthropic.baseUrl, SERVICE_AI_MODEL: "claude-test" } });
  });
  afterAll(async () => {
    await service?.close();
    await anthropic?.close();
  });
  afterEach(() => forgetTranslations());

  it("returns the valid draft after one correction round, the engine's errors fed back to the model", async () => {
    const before = anthropic.requests.length;
    anthropic.script({ text: fenced(INVALID_DRAFT) }, { text: fenced(VALID_DRAFT, "Fixed.") });
    const response = await post(service, "/api/ai/translate", { intent: "align my reads with bwa and sort them" });
    expect(response.status).toBe(200);
    const draft = await response.json();
    expect(draft.toml_content).toBe(VALID_DRAFT);
    expect(draft.rounds).toBe(2);
    expect(draft.cached).toBe(false);
    expect(draft.provider).toEqual({ provider: "anthropic", model: "claude-test" });
    expect(draft.explanation.steps.map((step: { rule: string; tool: string }) => [step.rule, step.tool])).toEqual([
      ["align", "bwa"],
      ["sort", "samtools"],
    ]);
    expect(draft.alternatives.find((entry: { rule: string }) => entry.rule === "align")?.alternatives.length).toBeGreaterThan(0);
    expect(draft.confidence).toBeGreaterThan(0);
    expect(draft.confidence).toBeLessThan(1);
    const calls = anthropic.requests.slice(before);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.headers["x-api-key"]).toBe("test-key");
    expect(calls[0]!.body.model).toBe("claude-test");
    expect(JSON.stringify(calls[0]!.body.system)).toContain("strand");
    // The correction: the model's first draft, then the engine's finding naming the unknown rule.
    const correction = JSON.stringify(calls[1]!.body.messages.at(-1));
    expect(correction).toContain("alignn");
    expect(correction).toMatch(/rejected/);
    // Each call counted, with its tokens, and logged.
    const metrics = await (await fetch(`${service.url}/api/metrics?format=prometheus`)).text();
    expect(metrics).toMatch(/strand_ai_calls_total\{task="translate",provider="anthropic",outcome="ok"\} [2-9]/);
    expect(metrics).toMatch(/strand_ai_tokens_total\{task="translate",provider="anthropic",direction="output"\} \d+/);
    expect(service.logs.some((entry) => String(entry.msg).startsWith("AI translate call to anthropic (claude-test): ok"))).toBe(true);
    // Nothing was saved: a draft is a proposal.
    const saved = await (await fetch(`${service.url}/api/pipelines`)).json();
    expect(JSON.stringify(saved)).not.toContain("align-reads");
  });

  it("streams every step: intent, match, generate, validate, correct, generate, validate, done", async () => {
    anthropic.script({ text: fenced(INVALID_DRAFT) }, { text: fenced(VALID_DRAFT) });
    const response = await post(service, "/api/ai/translate/stream", { intent: "align reads then sort (streamed)" }, { headers: { "Content-Type": "application/json", Accept: "text/event-stream", "Accept-Encoding": "gzip" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(response.headers.get("content-encoding")).toBeNull();
    const events = sseEvents(await response.text());
    const steps = events.filter((entry) => entry.event === "progress").map((entry) => entry.data.step);
    expect(steps).toEqual(["intent", "match", "generate", "validate", "correct", "generate", "validate", "done"]);
    const progress = events.filter((entry) => entry.event === "progress").map((entry) => entry.data);
    expect(progress[0]).toMatchObject({ intent: "align reads then sort (streamed)" });
    expect(progress[1].templates_count).toBeGreaterThan(0);
    expect(progress[3]).toMatchObject({ valid: false });
    expect(JSON.stringify(progress[3].errors)).toContain("alignn");
    expect(progress[6]).toMatchObject({ valid: true });
    const done = events.at(-1)!;
    expect(done.event).toBe("done");
    expect(done.data.pipeline_id).toBe(progress[7].pipeline_id);
    expect(done.data.toml_content).toBe(VALID_DRAFT);
  });

  it("answers an identical request of the same user from the cache, without calling the model", async () => {
    anthropic.script({ text: fenced(VALID_DRAFT) });
    const first = await (await post(service, "/api/ai/translate", { intent: "Align reads, sort", context: { data: { paired: true, samples: 2 } } })).json();
    const count = anthropic.requests.length;
    const again = await (await post(service, "/api/ai/translate", { intent: "align   reads, sort", context: { data: { samples: 2, paired: true } } })).json();
    expect(anthropic.requests.length).toBe(count);
    expect(again.cached).toBe(true);
    expect(again.toml_content).toBe(first.toml_content);
    // Other data characteristics are another request.
    anthropic.script({ text: fenced(VALID_DRAFT) });
    const other = await (await post(service, "/api/ai/translate", { intent: "align reads, sort", context: { data: { paired: false, samples: 2 } } })).json();
    expect(other.cached).toBe(false);
    expect(anthropic.requests.length).toBe(count + 1);
  });

  it("fails with AI_TRANSLATE_ERROR naming the errors and a template when the draft never validates", async () => {
    anthropic.script(...Array.from({ length: 4 }, () => ({ text: fenced(INVALID_DRAFT) })));
    const response = await post(service, "/api/ai/translate", { intent: "a hello world pipeline that keeps failing" });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe("AI_TRANSLATE_ERROR");
    expect(body.message).toContain("alignn");
    expect(body.suggestion).toMatch(/^Try the hello-world template/);
  });

  it("lets one user have 4 model calls in flight; a fifth is RATE_LIMITED with Retry-After", async () => {
    anthropic.script(...Array.from({ length: 4 }, () => ({ text: fenced(VALID_DRAFT), delayMs: 700 })));
    const answers = await Promise.all(Array.from({ length: 5 }, (_, index) => post(service, "/api/ai/translate", { intent: `pipeline number ${index} for the gate` })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.headers.get("retry-after")).toBe("5");
    expect((await refused.json()).code).toBe("RATE_LIMITED");
  });

  it("cancels the model call when the client leaves the stream", async () => {
    anthropic.script({ text: fenced(VALID_DRAFT), delayMs: 200, chunkDelayMs: 200 });
    const index = anthropic.requests.length;
    const controller = new AbortController();
    const response = await post(service, "/api/ai/translate/stream", { intent: "something slow to draft" }, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read(); // the stream is open
    while (anthropic.requests.length <= index) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    const request = await anthropic.settled(index);
    expect(request.aborted).toBe(true);
  });
});

describe("with no AI provider", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ env: {} });
  });
  afterAll(async () => service?.close());

  it("answers AI_NOT_CONFIGURED at once from every AI endpoint, and the rest of the service is unaffected", async () => {
    const calls: [string, unknown][] = [
      ["/api/ai/translate", { intent: "rna-seq" }],
      ["/api/ai/translate/stream", { intent: "rna-seq" }],
      ["/api/ai/test", {}],
    ];
    for (const [path, body] of calls) {
      const started = performance.now();
      const response = await post(service, path, body);
      expect(response.status, path).toBe(503);
      expect((await response.json()).code, path).toBe("AI_NOT_CONFIGURED");
      expect(performance.now() - started).toBeLessThan(2000);
    }
    const config = await (await fetch(`${service.url}/api/ai/config`)).json();
    expect(config).toMatchObject({ is_configured: false, provider: null, chain: [] });
    expect((await fetch(`${service.url}/api/pipelines`)).status).toBe(200);
    expect((await post(service, "/api/pipelines/validate", { toml_content: VALID_DRAFT })).status).toBe(200);
  });
});
