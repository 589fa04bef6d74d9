/**
 * Local HTTP servers that speak the AI providers' real wire protocols with scripted replies, so tests drive
 * the real `ai` SDK providers (and strand's AI domain through its base-URL settings) without the internet.
 *
 * - `anthropic`: the Messages API, `POST /v1/messages` (`@ai-sdk/anthropic`): JSON with `content` blocks, or
 *   server-sent events `message_start` … `message_stop` when the request says `stream: true`.
 * - `openai`: Chat Completions, `POST /v1/chat/completions` (also `POST /chat/completions`, the path
 *   DeepSeek's documentation uses), served to `createOpenAI(...).chat(model)` and `@ai-sdk/deepseek`: JSON
 *   with `choices[0].message`, or `data:` chunks ending with a usage chunk and `data: [DONE]`.
 * - `ollama`: `POST /api/chat` (`ollama-ai-provider-v2`): JSON, or newline-delimited JSON whose last line
 *   has `done: true` and the token counts. Ollama streams unless the request says `stream: false`.
 *
 * The shapes follow what each provider's zod schemas parse (read from their dist files) and what the real
 * services send, so a reply that works here works against the real service. Paths are strict on purpose: a
 * base URL missing its `/v1` or `/api` part gets a 404 here as it would in production, instead of passing.
 * `GET /v1/models` (and Ollama's `GET /api/tags`, `GET /api/version`) answer with one model, without
 * consuming the script, for code that checks a connection.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A wire protocol the servers speak: Anthropic Messages, OpenAI Chat Completions, or Ollama chat. */
export type Protocol = "anthropic" | "openai" | "ollama";

/** What the scripted model answers to one request. */
export interface ScriptedReply {
  /** Assistant text; streamed in small chunks (about a word each) when the request asks to stream. */
  text?: string;
  /** The model asks for tools (the arguments are streamed in pieces, as the real services do). */
  toolCalls?: { name: string; args: Record<string, unknown>; id?: string }[];
  /** Token counts reported (default 10 in, 20 out). */
  usage?: { input: number; output: number };
  /** Answer with this HTTP error instead, in the protocol's own error shape unless `errorBody` is given. */
  status?: number;
  /** The error response body, verbatim (JSON-encoded unless a string). */
  errorBody?: unknown;
  /** The message inside the protocol's own error shape (default: a realistic one for the status). */
  errorMessage?: string;
  /** Extra response headers (for example `retry-after-ms` to make an SDK retry at once). */
  headers?: Record<string, string>;
  /** The output stopped at the token limit: `max_tokens` (Anthropic) or `length` (OpenAI, Ollama). */
  truncated?: boolean;
  /**
   * A streamed reply breaks after its text with this message, in the protocol's in-stream error shape
   * (Anthropic's `error` event with `overloaded_error`, OpenAI's `data: {error}` chunk, Ollama's `{error}`
   * line), and never finishes. Plain (non-streamed) requests ignore it.
   */
  streamError?: string;
  /** Wait this long before the first byte (for cancellation tests). */
  delayMs?: number;
  /** Pause between streamed chunks. */
  chunkDelayMs?: number;
  /** Answer `307 Temporary Redirect` to this URL instead (a provider, or something in its way, sending the client elsewhere). */
  redirectTo?: string;
}

/** One request a server received. */
export interface RecordedRequest {
  /** The request path (with its query, if any). */
  path: string;
  /** Request headers, names in lower case. */
  headers: Record<string, string>;
  /** The body parsed as JSON (the raw text when it is not JSON, null when empty). */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read provider-specific fields freely
  /** True when the client went away before the reply ended. */
  aborted: boolean;
}

/** A running protocol server. */
export interface ProtocolServer {
  protocol: Protocol;
  /** The base URL to hand to the SDK provider (`baseURL` option) so that its requests land here. */
  baseUrl: string;
  /** `http://127.0.0.1:<port>` without the API prefix: what `OLLAMA_HOST` is set to. */
  origin: string;
  /** Every request received, in order (body parsed as JSON). `aborted` turns true when the client went away before the reply ended. */
  requests: RecordedRequest[];
  /** Appends replies to the script (consumed one per request, in order). */
  script(...replies: ScriptedReply[]): void;
  /** Resolves once request `index` has been received and its reply has ended or its client went away. */
  settled(index: number): Promise<RecordedRequest>;
  close(): Promise<void>;
}

/** Chooses the reply from the request itself (to answer by what the prompt says); `index` is its position in `requests`. */
export type ReplyChooser = (request: RecordedRequest, index: number) => ScriptedReply;

const DEFAULT_USAGE = { input: 10, output: 20 };
const MODEL_LISTED = "test-model";

/**
 * Starts a server speaking `protocol` on 127.0.0.1 (a free port). Replies come from the queued script first
 * (the array given here, then `script(...)`), then from the chooser function if one was given; with neither
 * left the server answers 500 "script exhausted after N requests" (with `retry-after-ms: 0`, so an SDK's
 * retries fail at once instead of backing off for seconds).
 */
export async function startProtocolServer(protocol: Protocol, script?: ScriptedReply[] | ReplyChooser): Promise<ProtocolServer> {
  const queue: ScriptedReply[] = Array.isArray(script) ? [...script] : [];
  const chooser = typeof script === "function" ? script : undefined;
  const requests: RecordedRequest[] = [];
  const settledWaiters = new Map<number, (() => void)[]>();
  const settledIndexes = new Set<number>();
  const sockets = new Set<Socket>();
  let answeredFromScript = 0;

  const markSettled = (index: number) => {
    settledIndexes.add(index);
    for (const wake of settledWaiters.get(index) ?? []) wake();
    settledWaiters.delete(index);
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      // A throwing reply chooser, say: answer in the protocol's shape so the test sees why.
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json", "retry-after-ms": "0" });
      res.end(JSON.stringify(errorShape(protocol, 500, `protocol server failed: ${String(error)}`)));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const recorded: RecordedRequest = { path: req.url ?? "/", headers: flattenHeaders(req), body: parseBody(raw), aborted: false };
    const index = requests.push(recorded) - 1;
    const reply = new ReplyWriter(res, protocol);
    res.on("close", () => {
      if (!res.writableFinished) recorded.aborted = true;
      reply.cancelled = true;
      markSettled(index);
    });

    const route = routeOf(protocol, req.method ?? "GET", new URL(recorded.path, "http://x").pathname);
    if (route === "models") {
      await reply.json(200, modelList(protocol));
      return;
    }
    if (route === "version") {
      await reply.json(200, { version: "0.12.0" });
      return;
    }
    if (route === "unknown") {
      await reply.json(404, errorShape(protocol, 404, `this ${protocol} test server does not serve ${req.method} ${recorded.path}; it serves POST ${expectedPath(protocol)}`));
      return;
    }

    const scripted = queue.shift() ?? chooser?.(recorded, index);
    if (scripted === undefined) {
      const message = `script exhausted after ${answeredFromScript} requests`;
      await reply.json(500, errorShape(protocol, 500, message), { "retry-after-ms": "0" });
      return;
    }
    answeredFromScript += 1;
    if (scripted.delayMs) await reply.pause(scripted.delayMs);
    if (reply.cancelled) return;

    if (scripted.redirectTo !== undefined) {
      await reply.json(307, { message: "moved" }, { location: scripted.redirectTo, ...scripted.headers });
      return;
    }
    if (scripted.status !== undefined && scripted.status >= 400) {
      const body = scripted.errorBody ?? errorShape(protocol, scripted.status, scripted.errorMessage);
      await reply.json(scripted.status, body, scripted.headers);
      return;
    }
    const model = typeof recorded.body?.model === "string" ? recorded.body.model : MODEL_LISTED;
    const streaming = protocol === "ollama" ? recorded.body?.stream !== false : recorded.body?.stream === true;
    if (!streaming) {
      await reply.json(200, completeReply(protocol, scripted, model), scripted.headers);
      return;
    }
    const { contentType, frames } = streamedReply(protocol, scripted, model, recorded.body);
    await reply.stream(contentType, frames, scripted.chunkDelayMs ?? 0, scripted.headers);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    protocol,
    baseUrl: `${origin}${protocol === "ollama" ? "/api" : "/v1"}`,
    origin,
    requests,
    script: (...replies) => void queue.push(...replies),
    settled: (index) =>
      new Promise<RecordedRequest>((resolve) => {
        const done = () => resolve(requests[index]!);
        if (settledIndexes.has(index)) done();
        else settledWaiters.set(index, [...(settledWaiters.get(index) ?? []), done]);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A reply in the protocol's own error shape, answering a request with a prompt longer than the model's context window. */
export function contextOverflowReply(protocol: Protocol): ScriptedReply {
  switch (protocol) {
    case "anthropic":
      return {
        status: 400,
        errorBody: { type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 208310 tokens > 200000 maximum" } },
      };
    case "openai":
      return {
        status: 400,
        errorBody: {
          error: {
            message:
              "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
            type: "invalid_request_error",
            param: "messages",
            code: "context_length_exceeded",
          },
        },
      };
    case "ollama":
      // Ollama normally cuts the prompt to `num_ctx` silently; with truncation off it refuses like this.
      return { status: 400, errorBody: { error: "the input length exceeds the context length" } };
  }
}

type Route = "chat" | "models" | "version" | "unknown";

function routeOf(protocol: Protocol, method: string, pathname: string): Route {
  if (method === "GET") {
    if (protocol === "ollama") return pathname === "/api/tags" ? "models" : pathname === "/api/version" ? "version" : "unknown";
    return pathname === "/v1/models" ? "models" : "unknown";
  }
  if (method !== "POST") return "unknown";
  switch (protocol) {
    case "anthropic":
      return pathname === "/v1/messages" ? "chat" : "unknown";
    case "openai":
      return pathname === "/v1/chat/completions" || pathname === "/chat/completions" ? "chat" : "unknown";
    case "ollama":
      return pathname === "/api/chat" ? "chat" : "unknown";
  }
}

function expectedPath(protocol: Protocol): string {
  return protocol === "anthropic" ? "/v1/messages" : protocol === "openai" ? "/v1/chat/completions" : "/api/chat";
}

function modelList(protocol: Protocol): unknown {
  switch (protocol) {
    case "anthropic":
      return {
        data: [{ type: "model", id: MODEL_LISTED, display_name: "Test model", created_at: "2025-01-01T00:00:00Z" }],
        has_more: false,
        first_id: MODEL_LISTED,
        last_id: MODEL_LISTED,
      };
    case "openai":
      return { object: "list", data: [{ id: MODEL_LISTED, object: "model", created: 1_700_000_000, owned_by: "test" }] };
    case "ollama":
      return {
        models: [
          {
            name: `${MODEL_LISTED}:latest`,
            model: `${MODEL_LISTED}:latest`,
            modified_at: "2025-01-01T00:00:00Z",
            size: 1,
            digest: "0".repeat(64),
            details: { format: "gguf", family: "test", parameter_size: "1B", quantization_level: "Q4_K_M" },
          },
        ],
      };
  }
}

/** The realistic error body of each protocol for an HTTP status (Ollama's is a bare string, as the real runner sends). */
function errorShape(protocol: Protocol, status: number, message?: string): unknown {
  switch (protocol) {
    case "anthropic": {
      const [type, text] = anthropicErrorOf(status);
      return { type: "error", error: { type, message: message ?? text } };
    }
    case "openai": {
      const [type, code, text] = openaiErrorOf(status);
      return { error: { message: message ?? text, type, param: null, code } };
    }
    case "ollama":
      return { error: message ?? `status ${status}` };
  }
}

function anthropicErrorOf(status: number): [type: string, message: string] {
  if (status === 400) return ["invalid_request_error", "invalid request"];
  if (status === 401) return ["authentication_error", "invalid x-api-key"];
  if (status === 403) return ["permission_error", "Your API key does not have permission to use the specified resource."];
  if (status === 404) return ["not_found_error", "Not found"];
  if (status === 413) return ["request_too_large", "Request exceeds the maximum allowed number of bytes."];
  if (status === 429) return ["rate_limit_error", "This request would exceed the rate limit for your organization of 50 requests per minute."];
  if (status === 529) return ["overloaded_error", "Overloaded"];
  return ["api_error", "Internal server error"];
}

function openaiErrorOf(status: number): [type: string, code: string | null, message: string] {
  if (status === 401) return ["invalid_request_error", "invalid_api_key", "Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys."];
  if (status === 404) return ["invalid_request_error", "model_not_found", "The model does not exist or you do not have access to it."];
  if (status === 429) return ["requests", "rate_limit_exceeded", "Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s."];
  if (status < 500) return ["invalid_request_error", null, "invalid request"];
  return ["server_error", null, "The server had an error while processing your request. Sorry about that!"];
}

interface ToolCallOut {
  id: string;
  /** Whether the script chose the id (Ollama sends an id only then). */
  scriptedId: boolean;
  name: string;
  args: Record<string, unknown>;
}

function toolCallsOf(protocol: Protocol, reply: ScriptedReply): ToolCallOut[] {
  const prefix = protocol === "anthropic" ? "toolu_" : "call_";
  return (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? `${prefix}${randomBytes(8).toString("hex")}`,
    scriptedId: call.id !== undefined,
    name: call.name,
    args: call.args,
  }));
}

/** The stop reason the protocol reports for a reply. */
function stopReasonOf(protocol: Protocol, reply: ScriptedReply): string {
  const usesTools = (reply.toolCalls?.length ?? 0) > 0;
  switch (protocol) {
    case "anthropic":
      return reply.truncated ? "max_tokens" : usesTools ? "tool_use" : "end_turn";
    case "openai":
      return reply.truncated ? "length" : usesTools ? "tool_calls" : "stop";
    case "ollama":
      // The real runner says "stop" even when it asks for tools; the provider infers tool calls itself.
      return reply.truncated ? "length" : "stop";
  }
}

function completeReply(protocol: Protocol, reply: ScriptedReply, model: string): unknown {
  const usage = reply.usage ?? DEFAULT_USAGE;
  const calls = toolCallsOf(protocol, reply);
  switch (protocol) {
    case "anthropic":
      return {
        id: `msg_${randomBytes(12).toString("hex")}`,
        type: "message",
        role: "assistant",
        model,
        content: [
          ...(reply.text !== undefined ? [{ type: "text", text: reply.text }] : []),
          ...calls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.args })),
        ],
        stop_reason: stopReasonOf(protocol, reply),
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: usage.output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      };
    case "openai":
      return {
        id: `chatcmpl-${randomBytes(12).toString("hex")}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: reply.text ?? null,
              refusal: null,
              ...(calls.length > 0
                ? { tool_calls: calls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: JSON.stringify(call.args) } })) }
                : {}),
            },
            logprobs: null,
            finish_reason: stopReasonOf(protocol, reply),
          },
        ],
        usage: openaiUsage(usage),
      };
    case "ollama":
      return {
        model,
        created_at: new Date().toISOString(),
        message: {
          role: "assistant",
          content: reply.text ?? "",
          ...(calls.length > 0 ? { tool_calls: calls.map(ollamaToolCall) } : {}),
        },
        done: true,
        done_reason: stopReasonOf(protocol, reply),
        ...ollamaCounts(usage),
      };
  }
}

function openaiUsage(usage: { input: number; output: number }) {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

function ollamaCounts(usage: { input: number; output: number }) {
  return { total_duration: 1_000_000, load_duration: 100_000, prompt_eval_count: usage.input, prompt_eval_duration: 200_000, eval_count: usage.output, eval_duration: 700_000 };
}

/** Ollama's tool call: arguments as an object, and no id unless the script gave one (the provider makes one up). */
function ollamaToolCall(call: ToolCallOut) {
  return { ...(call.scriptedId ? { id: call.id } : {}), function: { name: call.name, arguments: call.args } };
}

/** Splits text into word-sized pieces (a word with its trailing space, long words cut), like token deltas. */
export function textPieces(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  return words.flatMap((word) => (word.length <= 12 ? [word] : (word.match(/[\s\S]{1,12}/g) ?? [])));
}

/** Splits serialized tool arguments into pieces, so clients must join partial JSON. */
function jsonPieces(json: string): string[] {
  return json.match(/[\s\S]{1,10}/g) ?? [""];
}

function streamedReply(protocol: Protocol, reply: ScriptedReply, model: string, body: any): { contentType: string; frames: string[] } { // eslint-disable-line @typescript-eslint/no-explicit-any -- the request body as the client sent it
  const usage = reply.usage ?? DEFAULT_USAGE;
  const calls = toolCallsOf(protocol, reply);
  const pieces = reply.text !== undefined ? textPieces(reply.text) : [];
  switch (protocol) {
    case "anthropic": {
      const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
      const frames = [
        event("message_start", {
          message: {
            id: `msg_${randomBytes(12).toString("hex")}`,
            type: "message",
            role: "assistant",
            model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: usage.input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
          },
        }),
        event("ping", {}),
      ];
      let index = 0;
      if (reply.text !== undefined) {
        frames.push(event("content_block_start", { index, content_block: { type: "text", text: "" } }));
        for (const piece of pieces) frames.push(event("content_block_delta", { index, delta: { type: "text_delta", text: piece } }));
        if (reply.streamError === undefined) frames.push(event("content_block_stop", { index }));
        index += 1;
      }
      if (reply.streamError !== undefined) {
        frames.push(event("error", { error: { type: "overloaded_error", message: reply.streamError } }));
        return { contentType: "text/event-stream; charset=utf-8", frames };
      }
      for (const call of calls) {
        frames.push(event("content_block_start", { index, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } }));
        frames.push(event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: "" } }));
        for (const piece of jsonPieces(JSON.stringify(call.args))) {
          frames.push(event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } }));
        }
        frames.push(event("content_block_stop", { index }));
        index += 1;
      }
      frames.push(event("message_delta", { delta: { stop_reason: stopReasonOf(protocol, reply), stop_sequence: null }, usage: { output_tokens: usage.output } }));
      frames.push(event("message_stop", {}));
      return { contentType: "text/event-stream; charset=utf-8", frames };
    }
    case "openai": {
      const id = `chatcmpl-${randomBytes(12).toString("hex")}`;
      const created = Math.floor(Date.now() / 1000);
      const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, system_fingerprint: "fp_test", choices, ...extra })}\n\n`;
      const choice = (delta: Record<string, unknown>, finish: string | null = null) => ({ index: 0, delta, logprobs: null, finish_reason: finish });
      const frames = [chunk([choice({ role: "assistant", content: reply.text !== undefined ? "" : null, refusal: null })])];
      for (const piece of pieces) frames.push(chunk([choice({ content: piece })]));
      if (reply.streamError !== undefined) {
        frames.push(`data: ${JSON.stringify({ error: { message: reply.streamError, type: "server_error", param: null, code: null } })}\n\n`);
        return { contentType: "text/event-stream; charset=utf-8", frames };
      }
      calls.forEach((call, callIndex) => {
        frames.push(chunk([choice({ tool_calls: [{ index: callIndex, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] })]));
        for (const piece of jsonPieces(JSON.stringify(call.args))) {
          frames.push(chunk([choice({ tool_calls: [{ index: callIndex, function: { arguments: piece } }] })]));
        }
      });
      frames.push(chunk([choice({}, stopReasonOf(protocol, reply))]));
      if (body?.stream_options?.include_usage === true) frames.push(chunk([], { usage: openaiUsage(usage) }));
      frames.push("data: [DONE]\n\n");
      return { contentType: "text/event-stream; charset=utf-8", frames };
    }
    case "ollama": {
      const line = (data: Record<string, unknown>) => `${JSON.stringify({ model, created_at: new Date().toISOString(), ...data })}\n`;
      const frames = pieces.map((piece) => line({ message: { role: "assistant", content: piece }, done: false }));
      if (reply.streamError !== undefined) {
        frames.push(`${JSON.stringify({ error: reply.streamError })}\n`);
        return { contentType: "application/x-ndjson", frames };
      }
      if (calls.length > 0) {
        frames.push(line({ message: { role: "assistant", content: "", tool_calls: calls.map(ollamaToolCall) }, done: false }));
      }
      frames.push(line({ message: { role: "assistant", content: "" }, done: true, done_reason: stopReasonOf(protocol, reply), ...ollamaCounts(usage) }));
      return { contentType: "application/x-ndjson", frames };
    }
  }
}

/** Writes one reply, stopping quietly once the client has gone away. */
class ReplyWriter {
  cancelled = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly protocol: Protocol,
  ) {
    res.on("close", () => {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      this.wake?.();
    });
  }

  private wake: (() => void) | undefined;

  /** The request id header the real service sends (Ollama sends none). */
  private requestIdHeader(): Record<string, string> {
    const id = randomBytes(8).toString("hex");
    return this.protocol === "anthropic" ? { "request-id": `req_${id}` } : this.protocol === "openai" ? { "x-request-id": `req_${id}` } : {};
  }

  /** Waits `ms`, returning early if the client goes away. */
  pause(ms: number): Promise<void> {
    if (this.cancelled) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.wake = undefined;
        resolve();
      }, ms);
    });
  }

  async json(status: number, body: unknown, headers: Record<string, string> = {}): Promise<void> {
    if (this.cancelled) return;
    const text = typeof body === "string" ? body : JSON.stringify(body);
    this.res.writeHead(status, { "content-type": "application/json", ...this.requestIdHeader(), ...headers });
    this.res.end(text);
  }

  async stream(contentType: string, frames: string[], chunkDelayMs: number, headers: Record<string, string> = {}): Promise<void> {
    if (this.cancelled) return;
    this.res.writeHead(200, { "content-type": contentType, "cache-control": "no-cache", ...this.requestIdHeader(), ...headers });
    this.res.flushHeaders();
    for (const [position, frame] of frames.entries()) {
      if (position > 0 && chunkDelayMs > 0) await this.pause(chunkDelayMs);
      else await new Promise((resolve) => setImmediate(resolve)); // separate writes, so clients see separate chunks
      if (this.cancelled) return;
      this.res.write(frame);
    }
    this.res.end();
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

function parseBody(raw: string): unknown {
  if (raw === "") return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}
