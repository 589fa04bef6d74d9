/**
 * Provider kinds, names and URLs, and the chain order of the specification: the caller's own provider, the
 * configured one, discovered second and third hosted providers, the local runner only with OLLAMA_HOST.
 */
import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { classifyFailure, normaliseBaseUrl, providerChain, providerKind, type ProviderCandidate } from "../../../../src/server/domains/ai/providers.js";

const order = (chain: ProviderCandidate[]) => chain.map((candidate) => `${candidate.source}:${candidate.kind}`);

describe("provider kinds and URLs", () => {
  it("accepts the kinds and their aliases, case-insensitively", () => {
    expect(providerKind("Claude")).toBe("anthropic");
    expect(providerKind("anthropic")).toBe("anthropic");
    expect(providerKind("open-ai")).toBe("openai");
    expect(providerKind("DeepSeek")).toBe("deepseek");
    expect(providerKind("ollama")).toBe("ollama");
    expect(providerKind("noop")).toBeUndefined();
  });

  it("turns what people paste into the base URL each SDK wants", () => {
    expect(normaliseBaseUrl("anthropic", "https://api.anthropic.com")).toBe("https://api.anthropic.com/v1");
    expect(normaliseBaseUrl("anthropic", "https://api.anthropic.com/v1/messages")).toBe("https://api.anthropic.com/v1");
    expect(normaliseBaseUrl("anthropic", "http://proxy:8080/")).toBe("http://proxy:8080/v1");
    expect(normaliseBaseUrl("openai", "https://api.openai.com/v1/chat/completions")).toBe("https://api.openai.com/v1");
    expect(normaliseBaseUrl("openai", "http://localhost:1234")).toBe("http://localhost:1234/v1");
    expect(normaliseBaseUrl("deepseek", "https://api.deepseek.com/chat/completions")).toBe("https://api.deepseek.com");
    expect(normaliseBaseUrl("ollama", "http://gpu-box:11434")).toBe("http://gpu-box:11434/api");
    expect(normaliseBaseUrl("ollama", "gpu-box:11434")).toBe("http://gpu-box:11434/api");
    expect(normaliseBaseUrl("ollama", "http://gpu-box:11434/api/chat")).toBe("http://gpu-box:11434/api");
  });
});

describe("the chain", () => {
  const hostedKeys = { ANTHROPIC_API_KEY: "a", OPENAI_API_KEY: "o", DEEPSEEK_API_KEY: "d" };

  it("is empty when nothing is usable", () => {
    expect(providerChain({ ai: {} })).toEqual([]);
    expect(providerChain({ ai: { SERVICE_AI_PROVIDER: "anthropic" } })).toEqual([]); // no key
    expect(providerChain({ ai: { SERVICE_AI_PROVIDER: "disabled", ANTHROPIC_API_KEY: "" } })).toEqual([]);
  });

  it("puts the caller's own provider first, then the configured one, then two discovered hosted ones, then the local runner", () => {
    const chain = providerChain({
      user: { provider: "deepseek", api_key: "mine" },
      configured: { provider: "openai", api_key: "shared" },
      ai: { ...hostedKeys, OLLAMA_HOST: "http://127.0.0.1:11434" },
    });
    expect(order(chain)).toEqual(["user:deepseek", "server:openai", "discovered:anthropic", "local:ollama"]);
  });

  it("discovers at most a second and a third hosted provider, Anthropic first", () => {
    expect(order(providerChain({ ai: hostedKeys }))).toEqual(["discovered:anthropic", "discovered:openai"]);
    expect(order(providerChain({ ai: { ...hostedKeys, SERVICE_AI_PROVIDER: "deepseek", SERVICE_AI_API_KEY: "k" } }))).toEqual(["environment:deepseek", "discovered:anthropic", "discovered:openai"]);
  });

  it("takes the local runner only when OLLAMA_HOST is set", () => {
    expect(providerChain({ ai: { OLLAMA_MODEL: "llama3.1" } })).toEqual([]);
    const [local] = providerChain({ ai: { OLLAMA_HOST: "127.0.0.1:11434", OLLAMA_MODEL: "qwen2.5" } });
    expect(local).toMatchObject({ kind: "ollama", source: "local", model: "qwen2.5", baseUrl: "http://127.0.0.1:11434/api", apiKey: null });
  });

  it("defaults the kind to Anthropic when only SERVICE_AI_API_KEY is set, and treats empty strings as absent", () => {
    const [first] = providerChain({ ai: { SERVICE_AI_API_KEY: "k", SERVICE_AI_MODEL: "", SERVICE_AI_API_URL: "  " } });
    expect(first).toMatchObject({ kind: "anthropic", model: "claude-sonnet-4-5", baseUrl: "https://api.anthropic.com/v1", source: "environment" });
  });

  it("skips settings that cannot be used (a user row without a key does not borrow another's)", () => {
    const chain = providerChain({ user: { provider: "openai", api_key: null }, configured: { provider: "anthropic", api_key: "shared" }, ai: {} });
    expect(order(chain)).toEqual(["server:anthropic"]);
  });
});

describe("failure classes", () => {
  const candidate: ProviderCandidate = { kind: "openai", model: "gpt-4o", baseUrl: "http://127.0.0.1:1/v1", apiKey: "k", source: "server", reach: { allowPrivate: true } };
  const apiError = (statusCode: number, message: string, headers: Record<string, string> = {}) =>
    new APICallError({ message, url: candidate.baseUrl, requestBodyValues: {}, statusCode, responseHeaders: headers, responseBody: JSON.stringify({ error: { message } }) });

  it("tells rate limits, refused credentials, context overflow and output limits apart, naming the provider", () => {
    const limited = classifyFailure(apiError(429, "slow down", { "retry-after": "7" }), candidate);
    expect(limited).toMatchObject({ kind: "rate_limit", provider: "openai", retryAfterSeconds: 7 });
    expect(limited.message).toMatch(/^openai \(gpt-4o\): rate limited/);
    expect(classifyFailure(apiError(401, "bad key"), candidate).kind).toBe("auth");
    expect(classifyFailure(apiError(400, "This model's maximum context length is 128000 tokens"), candidate).kind).toBe("context_overflow");
    expect(classifyFailure(apiError(400, "prompt is too long: 300000 tokens > 200000 maximum"), candidate).kind).toBe("context_overflow");
    expect(classifyFailure(apiError(400, "max_tokens is too large"), candidate).kind).toBe("output_limit");
    expect(classifyFailure(apiError(500, "boom"), candidate).kind).toBe("other");
    expect(classifyFailure(new Error("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:1") }), candidate).kind).toBe("unreachable");
  });
});
