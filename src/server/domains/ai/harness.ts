/**
 * The one generation harness behind translate, streamed translate, chat, explain, interpret and optimize:
 * a model call through the provider chain (the first candidate that answers wins; each failure is
 * classified and the next candidate tried), with read-only tools, text streamed as it arrives, tool calls
 * reported, and every call's tokens and latency recorded. Tools the model asks for that do not exist — a
 * write, say — are refused and the refusal goes back to the model.
 */
import { NoSuchToolError, stepCountIs, streamText, type ModelMessage, type ToolSet } from "ai";
import { ServiceError } from "../../errors.js";
import { classifyFailure, describeCandidate, languageModel, ProviderFailure, type ProviderCandidate } from "./providers.js";
import type { AiTask } from "./tasks.js";

export type { AiTask } from "./tasks.js";

/** One model call as logged and counted. */
export interface CallRecord {
  task: AiTask;
  provider: string;
  model: string;
  source: string;
  outcome: "ok" | ProviderFailure["kind"];
  input_tokens: number;
  output_tokens: number;
  latency_ms: number;
}

/** Where call records go (the metrics and the log). */
export type CallObserver = (record: CallRecord) => void;

/** A request to the model. */
export interface ModelRequest {
  task: AiTask;
  system: string;
  messages: ModelMessage[];
  /** Read-only tools the model may call. */
  tools?: ToolSet;
  /** Model steps in this call (tool rounds + the answer); default 1 without tools, 5 with. */
  maxSteps?: number;
  /** Upper bound of the reply's tokens (default 4096). */
  maxOutputTokens?: number;
  signal?: AbortSignal;
  onText?(delta: string): void;
  onToolCall?(name: string, input: unknown): void;
  onToolResult?(name: string, summary: string, refused: boolean): void;
  /** A candidate failed and the next one is tried. */
  onFallback?(failure: ProviderFailure, next: ProviderCandidate): void;
}

/** The model's answer and who gave it. */
export interface ModelAnswer {
  text: string;
  candidate: ProviderCandidate;
  input_tokens: number;
  output_tokens: number;
  latency_ms: number;
}

/** Every candidate failed: the failures, in chain order. */
export class ChainFailure extends Error {
  constructor(readonly failures: ProviderFailure[]) {
    super(failures.length === 0 ? "no AI provider is configured" : failures.map((failure) => failure.message).join("; "));
  }

  /** True when the caller went away (nothing more to try or to tell). */
  get cancelled(): boolean {
    return this.failures.some((failure) => failure.kind === "cancelled");
  }
}

/** How long one provider may take to finish a call before the next is tried (`SERVICE_AI_TIMEOUT` seconds). */
export const DEFAULT_CALL_TIMEOUT_MS = 180_000;

/** Tool results are summarised in events to this many characters. */
const SUMMARY_CHARS = 200;

/** Model calls in flight per user, so one user's many requests cannot take every provider connection. */
export class CallGate {
  private readonly inFlight = new Map<string, number>();

  constructor(readonly perUser: number) {}

  /** Takes a slot for `user` (released by the function returned); RATE_LIMITED when all of theirs are taken. */
  enter(user: string): () => void {
    const count = this.inFlight.get(user) ?? 0;
    if (count >= this.perUser) {
      throw new ServiceError("RATE_LIMITED", `${count} AI calls of yours are already in progress`, { detail: "retry in 5s", suggestion: "wait for them to finish (or cancel one)", headers: { "Retry-After": "5" } });
    }
    this.inFlight.set(user, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(user) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(user);
      else this.inFlight.set(user, left);
    };
  }
}

/** Calls models through a provider chain. */
export class Harness {
  constructor(
    readonly chain: readonly ProviderCandidate[],
    private readonly observe: CallObserver = () => {},
    private readonly timeoutMs: number = DEFAULT_CALL_TIMEOUT_MS,
    /** The caller's slot in the per-user gate, taken for each call. */
    private readonly slot: { gate: CallGate; user: string } | undefined = undefined,
  ) {}

  /** The provider that would answer first, as answers show it. */
  get primary() {
    return this.chain[0] ? describeCandidate(this.chain[0]) : null;
  }

  /** Asks each candidate in turn until one answers; ChainFailure when none does (or the caller cancelled). */
  async call(request: ModelRequest): Promise<ModelAnswer> {
    const release = this.slot ? this.slot.gate.enter(this.slot.user) : () => {};
    try {
      return await this.callChain(request);
    } finally {
      release();
    }
  }

  private async callChain(request: ModelRequest): Promise<ModelAnswer> {
    const failures: ProviderFailure[] = [];
    for (let index = 0; index < this.chain.length; index++) {
      const candidate = this.chain[index]!;
      try {
        return await this.callOne(candidate, request);
      } catch (error) {
        const failure = classifyFailure(error, candidate);
        failures.push(failure);
        if (failure.kind === "cancelled" || request.signal?.aborted) throw new ChainFailure(failures);
        const next = this.chain[index + 1];
        if (next) request.onFallback?.(failure, next);
      }
    }
    throw new ChainFailure(failures);
  }

  private async callOne(candidate: ProviderCandidate, request: ModelRequest): Promise<ModelAnswer> {
    const started = performance.now();
    let inputTokens = 0;
    let outputTokens = 0;
    const record = (outcome: CallRecord["outcome"]) =>
      this.observe({ task: request.task, provider: candidate.kind, model: candidate.model, source: candidate.source, outcome, input_tokens: inputTokens, output_tokens: outputTokens, latency_ms: Math.round(performance.now() - started) });
    let messages = request.messages;
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(this.timeoutMs);
      try {
        const answer = await this.stream(candidate, { ...request, messages, signal: request.signal ? AbortSignal.any([request.signal, timeout]) : timeout });
        inputTokens = answer.input_tokens;
        outputTokens = answer.output_tokens;
        record("ok");
        return { ...answer, latency_ms: Math.round(performance.now() - started) };
      } catch (error) {
        const failure =
          timeout.aborted && !request.signal?.aborted
            ? new ProviderFailure("timeout", candidate.kind, candidate.model, `no complete answer within ${this.timeoutMs >= 1000 ? `${Math.round(this.timeoutMs / 1000)} s` : `${this.timeoutMs} ms`} (SERVICE_AI_TIMEOUT)`)
            : classifyFailure(error, candidate);
        // A conversation longer than the model's context: once, keep only the latest turns.
        if (failure.kind === "context_overflow" && attempt === 0 && messages.length > 6) {
          messages = messages.slice(-6);
          continue;
        }
        record(failure.kind);
        throw failure;
      }
    }
  }

  private async stream(candidate: ProviderCandidate, request: ModelRequest): Promise<Omit<ModelAnswer, "latency_ms">> {
    const tools = request.tools && Object.keys(request.tools).length > 0 ? request.tools : undefined;
    const result = streamText({
      model: languageModel(candidate),
      system: request.system,
      messages: request.messages,
      tools,
      stopWhen: stepCountIs(request.maxSteps ?? (tools ? 5 : 1)),
      maxOutputTokens: request.maxOutputTokens ?? 4096,
      maxRetries: 0,
      abortSignal: request.signal,
      // Errors arrive as parts of the stream below, where they are classified; the SDK's default prints them.
      onError: () => {},
    });
    let text = "";
    let finish: string | undefined;
    for await (const part of result.fullStream) {
      switch (part.type) {
        case "text-delta":
          text += part.text;
          request.onText?.(part.text);
          break;
        case "tool-call":
          request.onToolCall?.(part.toolName, part.input);
          break;
        case "tool-result":
          request.onToolResult?.(part.toolName, summarise(part.output), false);
          break;
        case "tool-error": {
          const refused = NoSuchToolError.isInstance(part.error) || /unavailable tool/i.test(String(part.error));
          const message = refused ? `refused: '${part.toolName}' is not a tool of this assistant, which can only read` : `Error: ${errorText(part.error)}`;
          request.onToolResult?.(part.toolName, summarise(message), refused);
          break;
        }
        case "finish-step":
          // Text of a step that ended in tool calls is thinking aloud; the answer is the last step's text.
          if (part.finishReason === "tool-calls") text = "";
          break;
        case "finish":
          finish = part.finishReason;
          break;
        case "error":
          throw part.error;
        case "abort":
          throw Object.assign(new Error("the request was aborted"), { name: "AbortError" });
      }
    }
    const usage = await result.totalUsage;
    if (finish === "length" && text.trim() === "") throw new ProviderFailure("output_limit", candidate.kind, candidate.model, "the reply was cut at the output limit before any text");
    // A stream that ended without a reason (a provider error the SDK could not read) and without text is a failure.
    if ((finish === "other" || finish === "error" || finish === undefined) && text.trim() === "") throw new ProviderFailure("bad_reply", candidate.kind, candidate.model, "the provider ended its reply without any text");
    return { text, candidate, input_tokens: usage.inputTokens ?? 0, output_tokens: usage.outputTokens ?? 0 };
  }
}

function summarise(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  return text.length > SUMMARY_CHARS ? `${text.slice(0, SUMMARY_CHARS - 1)}…` : text;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
