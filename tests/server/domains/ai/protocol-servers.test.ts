/**
 * The local AI protocol servers (`tests/support/ai-protocol-servers.ts`) proved against the real `ai` SDK
 * providers strand uses — Anthropic, OpenAI Chat Completions, DeepSeek (the same chat-completions server)
 * and Ollama — each pointed at its server through `baseURL`: plain and streamed text with usage, a tool
 * call round trip (plain and streamed), HTTP errors as `APICallError` (rate limit, context overflow, an
 * exhausted script) thrown by generateText and delivered as error parts by streamText, a stream broken
 * midway, retries honouring `retry-after-ms`, truncated output, and a client that goes away marking the
 * request aborted. If these pass, a reply scripted here is one the real SDK accepts.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createDeepSeek } from "@ai-sdk/deepseek";
import { createOpenAI } from "@ai-sdk/openai";
import { APICallError, RetryError, generateText, stepCountIs, streamText, tool, type LanguageModel } from "ai";
import { createOllama } from "ollama-ai-provider-v2";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { contextOverflowReply, startProtocolServer, type Protocol, type ProtocolServer, type RecordedRequest } from "../../../support/ai-protocol-servers.js";

const API_KEY = "test-key-not-secret";

interface ProviderCase {
  name: string;
  protocol: Protocol;
  model: (baseURL: string) => LanguageModel;
  /** What the request says about who is calling (the provider's authentication header). */
  authenticates: (request: RecordedRequest) => void;
  /** Whether the provider turns an error inside a stream into an error part (Ollama's drops it). */
  reportsStreamErrors: boolean;
}

const providers: ProviderCase[] = [
  {
    name: "anthropic",
    protocol: "anthropic",
    model: (baseURL) => createAnthropic({ baseURL, apiKey: API_KEY })("claude-sonnet-4-5"),
    authenticates: (request) => {
      expect(request.headers["x-api-key"]).toBe(API_KEY);
      expect(request.headers["anthropic-version"]).toBe("2023-06-01");
    },
    reportsStreamErrors: true,
  },
  {
    name: "openai",
    protocol: "openai",
    model: (baseURL) => createOpenAI({ baseURL, apiKey: API_KEY }).chat("gpt-4o-mini"),
    authenticates: (request) => expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`),
    reportsStreamErrors: true,
  },
  {
    name: "deepseek",
    protocol: "openai",
    model: (baseURL) => createDeepSeek({ baseURL, apiKey: API_KEY })("deepseek-chat"),
    authenticates: (request) => expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`),
    reportsStreamErrors: true,
  },
  {
    name: "ollama",
    protocol: "ollama",
    model: (baseURL) => createOllama({ baseURL })("llama3.2"),
    authenticates: () => undefined, // a local runner takes no key
    reportsStreamErrors: false,
  },
];

/** The tool results a request carries back to the model, in the protocol's own message shape. */
function toolResultsIn(protocol: Protocol, body: { messages: Record<string, unknown>[] }): { id: string; content: string }[] {
  if (protocol === "anthropic") {
    return body.messages
      .filter((message) => message.role === "user" && Array.isArray(message.content))
      .flatMap((message) => message.content as Record<string, unknown>[])
      .filter((part) => part.type === "tool_result")
      .map((part) => ({ id: String(part.tool_use_id), content: String(part.content) }));
  }
  return body.messages.filter((message) => message.role === "tool").map((message) => ({ id: String(message.tool_call_id), content: String(message.content) }));
}

/** The tool calls a request replays from the model's previous turn (their ids link them to the results). */
function toolCallIdsIn(protocol: Protocol, body: { messages: Record<string, unknown>[] }): string[] {
  const assistant = body.messages.filter((message) => message.role === "assistant");
  if (protocol === "anthropic") {
    return assistant.flatMap((message) => message.content as Record<string, unknown>[]).filter((part) => part.type === "tool_use").map((part) => String(part.id));
  }
  return assistant.flatMap((message) => (message.tool_calls as { id: string }[] | undefined) ?? []).map((call) => call.id);
}

/** The text of the last user message, whatever the protocol's content shape. */
function lastUserText(request: RecordedRequest): string {
  const users = (request.body.messages as { role: string; content: unknown }[]).filter((message) => message.role === "user");
  const content = users.at(-1)?.content;
  if (typeof content === "string") return content;
  return ((content as { type: string; text?: string }[]) ?? []).map((part) => part.text ?? "").join("");
}

const open: ProtocolServer[] = [];
async function serve(protocol: Protocol, ...args: Parameters<typeof startProtocolServer> extends [Protocol, ...infer Rest] ? Rest : never): Promise<ProtocolServer> {
  const server = await startProtocolServer(protocol, ...args);
  open.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

/** The message of a stream's error part: an Error, a plain `{message}` object (Anthropic, OpenAI) or a bare string (DeepSeek). */
function messageOf(error: unknown): string {
  if (typeof error === "string") return error;
  return String((error as { message?: unknown }).message);
}

/** Resolves with the error a promise rejects with (failing the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

const sequenceLookup = () => {
  const calls: { accession: string }[] = [];
  const lookup = tool({
    description: "Looks up a reference sequence by accession",
    inputSchema: z.object({ accession: z.string(), include_length: z.boolean() }),
    execute: async (input) => {
      calls.push(input);
      return { accession: input.accession, organism: "Homo sapiens", length: 16569 };
    },
  });
  return { calls, tools: { lookup_sequence: lookup } };
};

for (const provider of providers) {
  describe(`${provider.name} through the ${provider.protocol} protocol server`, () => {
    it("generateText returns the scripted text and usage, from a request the real service would accept", async () => {
      const server = await serve(provider.protocol, [{ text: "Align the reads with bwa mem, then call variants.", usage: { input: 42, output: 7 } }]);
      const result = await generateText({ model: provider.model(server.baseUrl), prompt: "How do I find variants?", maxRetries: 0 });

      expect(result.text).toBe("Align the reads with bwa mem, then call variants.");
      expect(result.usage.inputTokens).toBe(42);
      expect(result.usage.outputTokens).toBe(7);
      expect(result.finishReason).toBe("stop");
      expect(server.requests).toHaveLength(1);
      const [request] = server.requests;
      provider.authenticates(request!);
      expect(request!.body.model).toBeTypeOf("string");
      expect(request!.body.stream === true).toBe(false);
      expect(lastUserText(request!)).toBe("How do I find variants?");
      expect(request!.aborted).toBe(false);
    });

    it("streamText streams the text in more than one delta, then reports usage", async () => {
      const text = "FastQC first, then trim with fastp, then align.";
      const server = await serve(provider.protocol, [{ text, usage: { input: 12, output: 34 } }]);
      const result = streamText({ model: provider.model(server.baseUrl), prompt: "Plan a QC step", maxRetries: 0 });

      const deltas: string[] = [];
      for await (const delta of result.textStream) deltas.push(delta);
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join("")).toBe(text);
      expect((await result.usage).inputTokens).toBe(12);
      expect((await result.usage).outputTokens).toBe(34);
      expect(await result.finishReason).toBe("stop");
      expect(server.requests[0]!.body.stream).toBe(true);
      expect((await server.settled(0)).aborted).toBe(false);
    });

    it("a tool call round trip: the model calls the tool, the SDK runs it, the next request carries the result", async () => {
      const server = await serve(provider.protocol, [
        { toolCalls: [{ name: "lookup_sequence", args: { accession: "NC_012920.1", include_length: true }, id: "scripted-call-1" }], usage: { input: 30, output: 5 } },
        { text: "The mitochondrial genome is 16569 bases long.", usage: { input: 60, output: 9 } },
      ]);
      const { calls, tools } = sequenceLookup();
      const result = await generateText({ model: provider.model(server.baseUrl), prompt: "How long is NC_012920.1?", tools, stopWhen: stepCountIs(3), maxRetries: 0 });

      expect(calls).toEqual([{ accession: "NC_012920.1", include_length: true }]);
      expect(result.text).toBe("The mitochondrial genome is 16569 bases long.");
      expect(result.steps.map((step) => step.finishReason)).toEqual(["tool-calls", "stop"]);
      expect(result.totalUsage.inputTokens).toBe(90);
      expect(server.requests).toHaveLength(2);
      const offered = server.requests[0]!.body.tools as unknown[];
      expect(JSON.stringify(offered)).toContain("lookup_sequence");
      const results = toolResultsIn(provider.protocol, server.requests[1]!.body);
      expect(results).toHaveLength(1);
      expect(JSON.parse(results[0]!.content)).toEqual({ accession: "NC_012920.1", organism: "Homo sapiens", length: 16569 });
      expect(results[0]!.id).toBe("scripted-call-1");
      expect(toolCallIdsIn(provider.protocol, server.requests[1]!.body)).toEqual(["scripted-call-1"]);
    });

    it("a streamed tool call: arguments arrive in pieces and the loop still completes", async () => {
      const server = await serve(provider.protocol, [
        { toolCalls: [{ name: "lookup_sequence", args: { accession: "NC_000001.11", include_length: false } }] },
        { text: "Chromosome 1 it is." },
      ]);
      const { calls, tools } = sequenceLookup();
      const result = streamText({ model: provider.model(server.baseUrl), prompt: "Which sequence is NC_000001.11?", tools, stopWhen: stepCountIs(3), maxRetries: 0 });

      const kinds: string[] = [];
      for await (const part of result.fullStream) kinds.push(part.type);
      expect(await result.text).toBe("Chromosome 1 it is.");
      expect(calls).toEqual([{ accession: "NC_000001.11", include_length: false }]);
      expect(kinds).toContain("tool-call");
      expect(kinds).toContain("tool-result");
      expect(kinds).not.toContain("error");
      const results = toolResultsIn(provider.protocol, server.requests[1]!.body);
      expect(results).toHaveLength(1);
      expect(toolCallIdsIn(provider.protocol, server.requests[1]!.body)).toEqual([results[0]!.id]);
    });

    it("streamText does not throw on HTTP 429: the APICallError arrives as an error part, and the text promise rejects", async () => {
      const server = await serve(provider.protocol, [{ status: 429 }]);
      const seen: unknown[] = [];
      const result = streamText({ model: provider.model(server.baseUrl), prompt: "hi", maxRetries: 0, onError: ({ error }) => void seen.push(error) });

      const errors: unknown[] = [];
      for await (const part of result.fullStream) if (part.type === "error") errors.push(part.error);
      expect(errors).toHaveLength(1);
      expect(APICallError.isInstance(errors[0])).toBe(true);
      expect((errors[0] as APICallError).statusCode).toBe(429);
      expect(seen).toEqual(errors);
      await expect(result.text).rejects.toThrow(/No output generated/);
    });

    it("a stream that breaks after some text", async () => {
      const server = await serve(provider.protocol, [{ text: "The first half of an answer", streamError: "Overloaded" }]);
      const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
      try {
        const result = streamText({ model: provider.model(server.baseUrl), prompt: "hi", maxRetries: 0, onError: () => undefined });
        const deltas: string[] = [];
        const errors: unknown[] = [];
        for await (const part of result.fullStream) {
          if (part.type === "text-delta") deltas.push(part.text);
          if (part.type === "error") errors.push(part.error);
        }
        expect(deltas.join("")).toBe("The first half of an answer");
        if (provider.reportsStreamErrors) {
          expect(errors.map(messageOf)).toEqual(["Overloaded"]);
          expect(await result.finishReason).toBe("error");
        } else {
          // ollama-ai-provider-v2 cannot parse Ollama's `{"error": …}` line: it warns on the console and drops
          // it, so the stream just ends without its `done` line; only the finish reason tells.
          expect(errors).toEqual([]);
          expect(await result.finishReason).toBe("other");
          expect(warn).toHaveBeenCalledWith("Failed to parse NDJSON line:", expect.anything());
        }
      } finally {
        warn.mockRestore();
      }
    });

    it("HTTP 429 surfaces as an APICallError with statusCode 429 (no retries)", async () => {
      const server = await serve(provider.protocol, [{ status: 429 }]);
      const error = await rejection(generateText({ model: provider.model(server.baseUrl), prompt: "hi", maxRetries: 0 }));

      // isInstance, not instanceof: @ai-sdk/deepseek bundles its own copy of @ai-sdk/provider, so its errors
      // are not instances of the APICallError class that `ai` exports.
      expect(APICallError.isInstance(error)).toBe(true);
      const apiError = error as APICallError;
      expect(apiError.statusCode).toBe(429);
      expect(apiError.isRetryable).toBe(true);
      expect(apiError.url).toBe(server.origin + server.requests[0]!.path);
      expect(server.requests).toHaveLength(1);
    });

    it("a context overflow surfaces as a 400 APICallError whose body says so", async () => {
      const server = await serve(provider.protocol, [contextOverflowReply(provider.protocol)]);
      const error = await rejection(generateText({ model: provider.model(server.baseUrl), prompt: "a very long prompt", maxRetries: 0 }));

      expect(APICallError.isInstance(error)).toBe(true);
      const apiError = error as APICallError;
      expect(apiError.statusCode).toBe(400);
      expect(apiError.isRetryable).toBe(false);
      expect(apiError.responseBody).toMatch(/prompt is too long|maximum context length|exceeds the context length/);
    });

    it("retries a 429 after the server's retry-after-ms, then succeeds", async () => {
      const server = await serve(provider.protocol, [{ status: 429, headers: { "retry-after-ms": "1" } }, { text: "second time lucky" }]);
      const result = await generateText({ model: provider.model(server.baseUrl), prompt: "hi" });

      expect(result.text).toBe("second time lucky");
      expect(server.requests).toHaveLength(2);
    });

    it("output cut at the token limit finishes with reason length", async () => {
      const server = await serve(provider.protocol, [{ text: "[workflow]\nname = ", truncated: true }]);
      const result = await generateText({ model: provider.model(server.baseUrl), prompt: "Write a pipeline", maxRetries: 0 });
      expect(result.finishReason).toBe("length");
    });

    it("aborting a streamed request marks it aborted on the server", async () => {
      const server = await serve(provider.protocol, [{ text: "one two three four five six seven eight nine ten", chunkDelayMs: 30 }]);
      const controller = new AbortController();
      const result = streamText({ model: provider.model(server.baseUrl), prompt: "Count slowly", abortSignal: controller.signal, maxRetries: 0 });

      const deltas: string[] = [];
      try {
        for await (const delta of result.textStream) {
          deltas.push(delta);
          controller.abort();
        }
      } catch {
        // Depending on where the abort lands, the stream ends or throws an AbortError; either is fine here.
      }
      expect(deltas.length).toBeLessThan(10);
      expect((await server.settled(0)).aborted).toBe(true);
    });

    it("aborting while the server has not answered yet marks the request aborted", async () => {
      const server = await serve(provider.protocol, [{ text: "too late", delayMs: 5_000 }]);
      const controller = new AbortController();
      const pending = generateText({ model: provider.model(server.baseUrl), prompt: "hi", abortSignal: controller.signal, maxRetries: 0 });
      while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      controller.abort();

      const error = await rejection(pending);
      expect((error as Error).name).toBe("AbortError");
      expect((await server.settled(0)).aborted).toBe(true);
    });
  });
}

describe("protocol server scripting", () => {
  it("an exhausted script answers 500 saying so, fast even with the SDK's retries", async () => {
    const server = await serve("anthropic", [{ text: "only one" }]);
    const model = createAnthropic({ baseURL: server.baseUrl, apiKey: API_KEY })("claude-sonnet-4-5");
    await generateText({ model, prompt: "first" });

    const started = Date.now();
    const error = await rejection(generateText({ model, prompt: "second" }));
    expect(String((error as Error).message)).toContain("script exhausted after 1 requests");
    expect(server.requests).toHaveLength(4); // the first, then the second and its two retries
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("a 429 that outlasts the SDK's retries arrives as a RetryError wrapping the APICallError", async () => {
    const limited = { status: 429, headers: { "retry-after-ms": "1" } };
    const server = await serve("anthropic", [limited, limited, limited]);
    const model = createAnthropic({ baseURL: server.baseUrl, apiKey: API_KEY })("claude-sonnet-4-5");
    const error = await rejection(generateText({ model, prompt: "hi", maxRetries: 2 }));

    expect(RetryError.isInstance(error)).toBe(true);
    const retryError = error as RetryError;
    expect(retryError.reason).toBe("maxRetriesExceeded");
    expect(retryError.errors).toHaveLength(3);
    expect(APICallError.isInstance(retryError.lastError)).toBe(true);
    expect((retryError.lastError as APICallError).statusCode).toBe(429);
    expect(server.requests).toHaveLength(3);
  });

  it("a function script answers by what the prompt says; script() queues replies ahead of it", async () => {
    const server = await serve("openai", (request) => ({ text: lastUserText(request).includes("ping") ? "pong" : "what?" }));
    const model = createOpenAI({ baseURL: server.baseUrl, apiKey: API_KEY }).chat("gpt-4o-mini");

    expect((await generateText({ model, prompt: "ping" })).text).toBe("pong");
    expect((await generateText({ model, prompt: "hello" })).text).toBe("what?");
    server.script({ text: "queued first" });
    expect((await generateText({ model, prompt: "ping" })).text).toBe("queued first");
    expect((await generateText({ model, prompt: "ping" })).text).toBe("pong");
  });

  it("errorMessage fills the protocol's own error shape, and errorBody is sent verbatim", async () => {
    const server = await serve("anthropic", [
      { status: 401, errorMessage: "invalid x-api-key" },
      { status: 529, errorBody: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } },
    ]);
    const model = createAnthropic({ baseURL: server.baseUrl, apiKey: API_KEY })("claude-sonnet-4-5");

    const unauthorized = (await rejection(generateText({ model, prompt: "hi", maxRetries: 0 }))) as APICallError;
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.message).toBe("invalid x-api-key");
    expect(unauthorized.data).toEqual({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } });
    const overloaded = (await rejection(generateText({ model, prompt: "hi", maxRetries: 0 }))) as APICallError;
    expect(overloaded.statusCode).toBe(529);
    expect(overloaded.message).toBe("Overloaded");
  });

  it("the OpenAI provider's default model (the Responses API) gets a 404 naming the chat-completions path", async () => {
    const server = await serve("openai", [{ text: "never sent" }]);
    const error = (await rejection(generateText({ model: createOpenAI({ baseURL: server.baseUrl, apiKey: API_KEY })("gpt-4o-mini"), prompt: "hi", maxRetries: 0 }))) as APICallError;

    expect(error.statusCode).toBe(404);
    expect(error.message).toContain("/v1/chat/completions");
    expect(server.requests[0]!.path).toBe("/v1/responses");
  });

  it("a base URL without its /v1 misses the Anthropic server, as it would miss the real service", async () => {
    const server = await serve("anthropic", [{ text: "never sent" }]);
    const error = (await rejection(generateText({ model: createAnthropic({ baseURL: server.origin, apiKey: API_KEY })("claude-sonnet-4-5"), prompt: "hi", maxRetries: 0 }))) as APICallError;
    expect(error.statusCode).toBe(404);
    expect(server.requests[0]!.path).toBe("/messages");
  });

  it("lists one model for connection checks without consuming the script", async () => {
    const ollama = await serve("ollama", [{ text: "still here" }]);
    const tags = (await (await fetch(`${ollama.origin}/api/tags`)).json()) as { models: { name: string }[] };
    expect(tags.models.map((model) => model.name)).toEqual(["test-model:latest"]);
    expect((await generateText({ model: createOllama({ baseURL: ollama.baseUrl })("llama3.2"), prompt: "hi" })).text).toBe("still here");

    const anthropic = await serve("anthropic");
    const listed = await fetch(`${anthropic.baseUrl}/models`);
    expect(listed.status).toBe(200);
  });

  it("Ollama's errors are bare strings, so the provider's message is the HTTP status text and the body keeps the detail", async () => {
    const server = await serve("ollama", [{ status: 404, errorMessage: 'model "llama9" not found, try pulling it first' }]);
    const error = (await rejection(generateText({ model: createOllama({ baseURL: server.baseUrl })("llama9"), prompt: "hi", maxRetries: 0 }))) as APICallError;

    expect(error.statusCode).toBe(404);
    expect(error.message).toBe("Not Found");
    expect(JSON.parse(error.responseBody!)).toEqual({ error: 'model "llama9" not found, try pulling it first' });
  });
});
