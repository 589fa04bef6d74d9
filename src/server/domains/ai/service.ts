/**
 * What the AI endpoints share: the settings, the knowledge, the caller's read-only capabilities and a
 * harness over the caller's provider chain — or AI_NOT_CONFIGURED at once when no provider is usable.
 */
import type { Caller } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import { CallGate, Harness, type CallObserver } from "./harness.js";
import type { AiKnowledge } from "./read-tools.js";
import type { AiReader } from "./reader.js";
import type { AiSettings } from "./settings.js";

// What other domains (the chat copilot) use of this one: the harness, its read-only tools and capabilities, and the named event stream.
export { ChainFailure, Harness } from "./harness.js";
export { readTools, type AiKnowledge } from "./read-tools.js";
export type { AiReader, DraftValidation, RunFacts } from "./reader.js";
export { namedEventStream } from "./event-stream.js";

/** Everything the AI routes are given: reads only, and the settings of the AI itself. */
export interface AiContext {
  settings: AiSettings;
  knowledge: AiKnowledge;
  /** The caller's read-only capabilities (no write method exists on them). */
  readerFor(caller: Caller): AiReader;
  /** Where each model call's tokens and latency go (metrics and the log). */
  observe: CallObserver;
  /** How long one provider may take for one call (default 180 s). */
  callTimeoutMs?: number;
  /** Model calls in flight per user (default: 4 each). */
  gate?: CallGate;
}

const defaultGate = new CallGate(4);

/** The error of every AI endpoint when no provider can be used. */
export function notConfigured(): ServiceError {
  return new ServiceError("AI_NOT_CONFIGURED", "no AI provider is configured", {
    suggestion: "set SERVICE_AI_PROVIDER and SERVICE_AI_API_KEY (or ANTHROPIC_API_KEY, OPENAI_API_KEY, DEEPSEEK_API_KEY, OLLAMA_HOST), or POST /api/ai/config",
  });
}

/** A harness over the caller's chain; AI_NOT_CONFIGURED when it is empty. */
export async function harnessFor(context: AiContext, caller: Caller): Promise<Harness> {
  const chain = await context.settings.chainFor(caller);
  if (chain.length === 0) throw notConfigured();
  return new Harness(chain, context.observe, context.callTimeoutMs, { gate: context.gate ?? defaultGate, user: caller.id || "anonymous" });
}
