/**
 * AI providers: the four kinds strand speaks (Anthropic Messages, OpenAI Chat Completions, DeepSeek, and a
 * local Ollama runner), how each is found (a user's own settings, the shared settings, the environment),
 * the order they are tried in, and how their failures are told apart. Every model is built with the `ai`
 * SDK's provider for its real wire protocol; a base URL can point any of them at a local server speaking
 * that protocol (which is how the tests run without the internet).
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createDeepSeek } from "@ai-sdk/deepseek";
import { createOpenAI } from "@ai-sdk/openai";
import { APICallError, type LanguageModel } from "ai";
import { createOllama } from "ollama-ai-provider-v2";
import { pinnedFetch } from "../../outbound/pinned-fetch.js";
import { OutboundRefusal, type OutboundPolicy } from "../../outbound/pinned-request.js";
import type { AiEnvironment } from "../../settings.js";

/** The provider kinds, in the order hosted ones are discovered (Anthropic is the default hosted provider). */
export const PROVIDER_KINDS = ["anthropic", "openai", "deepseek", "ollama"] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** Names accepted for each kind (case-insensitive). */
const KIND_NAMES: Record<string, ProviderKind> = { anthropic: "anthropic", claude: "anthropic", openai: "openai", "open-ai": "openai", deepseek: "deepseek", ollama: "ollama" };

/** The kind a name stands for, or undefined for a name that is none. */
export function providerKind(name: string): ProviderKind | undefined {
  return KIND_NAMES[name.trim().toLowerCase()];
}

/** The model each kind uses when none is set. */
export const DEFAULT_MODELS: Record<ProviderKind, string> = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-4o",
  deepseek: "deepseek-chat",
  ollama: "llama3.1",
};

/** Where each kind is reached when no URL is set (the SDK's own defaults, written out to show them). */
export const DEFAULT_URLS: Record<ProviderKind, string> = {
  anthropic: "https://api.anthropic.com/v1",
  openai: "https://api.openai.com/v1",
  deepseek: "https://api.deepseek.com",
  ollama: "http://127.0.0.1:11434/api",
};

/** The environment variables of each kind when it is discovered rather than configured. */
const DISCOVERY: Record<Exclude<ProviderKind, "ollama">, { key: keyof AiEnvironment; url: keyof AiEnvironment; model: keyof AiEnvironment }> = {
  anthropic: { key: "ANTHROPIC_API_KEY", url: "ANTHROPIC_BASE_URL", model: "ANTHROPIC_MODEL" },
  openai: { key: "OPENAI_API_KEY", url: "OPENAI_BASE_URL", model: "OPENAI_MODEL" },
  deepseek: { key: "DEEPSEEK_API_KEY", url: "DEEPSEEK_BASE_URL", model: "DEEPSEEK_MODEL" },
};

/** Where a candidate's settings came from, as shown in answers and logs. */
export type ProviderSource = "user" | "server" | "environment" | "discovered" | "local";

/** Settings as stored or given: any field may be missing. */
export interface ProviderSettings {
  provider: string;
  model?: string | null;
  api_url?: string | null;
  api_key?: string | null;
}

/** A provider that can be called: kind, model, the URL requests go to, its key (never shown), and where calls may connect. */
export interface ProviderCandidate {
  kind: ProviderKind;
  model: string;
  baseUrl: string;
  apiKey: string | null;
  source: ProviderSource;
  /**
   * The addresses its calls may reach: each call resolves the host once, checks every address and connects to
   * a checked one; redirects are never followed. Private addresses are allowed for what the operator or an
   * administrator configured; a user's own provider is held to the rule its URL was saved under.
   */
  reach: OutboundPolicy;
}

/** A candidate as answers show it: everything but the key. */
export function describeCandidate(candidate: ProviderCandidate): { provider: ProviderKind; model: string; api_url: string; source: ProviderSource } {
  return { provider: candidate.kind, model: candidate.model, api_url: candidate.baseUrl, source: candidate.source };
}

/** Why settings cannot be used, or null when they can. */
export function unusableReason(settings: ProviderSettings, ai: AiEnvironment): string | null {
  const kind = providerKind(settings.provider);
  if (!kind) return `unknown provider '${settings.provider}' (one of ${PROVIDER_KINDS.join(", ")})`;
  if (kind === "ollama") return settings.api_url?.trim() || ai.OLLAMA_HOST?.trim() ? null : "the local runner needs OLLAMA_HOST or an api_url";
  return settings.api_key?.trim() ? null : `no API key for ${kind}`;
}

/** Settings as a candidate, or null when they are not usable. Empty strings count as absent. */
export function candidateOf(settings: ProviderSettings, source: ProviderSource, ai: AiEnvironment): ProviderCandidate | null {
  if (unusableReason(settings, ai) !== null) return null;
  const kind = providerKind(settings.provider)!;
  const url = settings.api_url?.trim() || (kind === "ollama" ? ai.OLLAMA_HOST?.trim() : undefined);
  return {
    kind,
    model: settings.model?.trim() || (kind === "ollama" ? ai.OLLAMA_MODEL?.trim() : undefined) || DEFAULT_MODELS[kind],
    baseUrl: url ? normaliseBaseUrl(kind, url) : DEFAULT_URLS[kind],
    apiKey: kind === "ollama" ? null : settings.api_key!.trim(),
    source,
    // Public addresses only for a user's own, until the settings (which know the caller) say otherwise.
    reach: { allowPrivate: source !== "user" },
  };
}

/**
 * The base URL the SDK wants, from what people paste: a full endpoint (`…/v1/messages`,
 * `…/chat/completions`, `…/api/chat`) or a bare host (`https://api.anthropic.com`, `http://host:11434`).
 */
export function normaliseBaseUrl(kind: ProviderKind, url: string): string {
  let text = url.trim().replace(/\/+$/, "");
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = `http://${text}`; // OLLAMA_HOST is often host:port
  const parsed = new URL(text);
  let path = parsed.pathname.replace(/\/+$/, "");
  if (kind === "anthropic") path = path.replace(/\/messages$/, "") || "/v1";
  else if (kind === "openai") path = path.replace(/\/chat\/completions$/, "") || "/v1";
  else if (kind === "deepseek") path = path.replace(/\/chat\/completions$/, "");
  else path = `${path.replace(/\/chat$/, "").replace(/\/api$/, "")}/api`;
  return `${parsed.origin}${path}`;
}

/** The shared provider from the environment (`SERVICE_AI_*`), if one is set; Anthropic when only a key is. */
export function environmentSettings(ai: AiEnvironment): ProviderSettings | null {
  const provider = ai.SERVICE_AI_PROVIDER?.trim();
  if (provider?.toLowerCase() === "disabled") return null;
  if (!provider && !ai.SERVICE_AI_API_KEY?.trim()) return null;
  return { provider: provider || "anthropic", api_key: ai.SERVICE_AI_API_KEY, model: ai.SERVICE_AI_MODEL, api_url: ai.SERVICE_AI_API_URL };
}

/**
 * The chain, in the specification's order: the caller's own provider, the configured one (the shared
 * settings, else the environment's), then hosted providers discovered from their own keys (Anthropic,
 * OpenAI, DeepSeek; kinds already in the chain are skipped), then the local runner only when `OLLAMA_HOST`
 * is set. Only usable candidates enter it; duplicates (same kind, URL and key) appear once.
 */
export function providerChain(input: { user?: ProviderSettings | null; configured?: ProviderSettings | null; ai: AiEnvironment }): ProviderCandidate[] {
  const { ai } = input;
  const chain: ProviderCandidate[] = [];
  const add = (candidate: ProviderCandidate | null) => {
    if (!candidate) return;
    if (chain.some((c) => c.kind === candidate.kind && c.baseUrl === candidate.baseUrl && c.apiKey === candidate.apiKey)) return;
    chain.push(candidate);
  };
  if (input.user) add(candidateOf(input.user, "user", ai));
  const configured = input.configured ?? environmentSettings(ai);
  if (configured) add(candidateOf(configured, input.configured ? "server" : "environment", ai));
  let discovered = 0;
  for (const kind of ["anthropic", "openai", "deepseek"] as const) {
    if (discovered === 2 || chain.some((c) => c.kind === kind)) continue;
    const names = DISCOVERY[kind];
    const before = chain.length;
    add(candidateOf({ provider: kind, api_key: ai[names.key], api_url: ai[names.url], model: ai[names.model] }, "discovered", ai));
    if (chain.length > before) discovered++;
  }
  if (ai.OLLAMA_HOST?.trim() && !chain.some((c) => c.kind === "ollama")) add(candidateOf({ provider: "ollama", model: ai.OLLAMA_MODEL }, "local", ai));
  return chain;
}

/** The SDK model for a candidate, speaking its kind's wire protocol; every request goes through the pinned fetch of its reach. */
export function languageModel(candidate: ProviderCandidate): LanguageModel {
  const apiKey = candidate.apiKey ?? undefined;
  const fetch = pinnedFetch(candidate.reach);
  switch (candidate.kind) {
    case "anthropic":
      return createAnthropic({ apiKey, baseURL: candidate.baseUrl, fetch })(candidate.model);
    case "openai":
      // Chat Completions, the protocol OpenAI-compatible servers speak (the SDK's default is the Responses API).
      return createOpenAI({ apiKey, baseURL: candidate.baseUrl, fetch }).chat(candidate.model);
    case "deepseek":
      return createDeepSeek({ apiKey, baseURL: candidate.baseUrl, fetch })(candidate.model);
    case "ollama":
      return createOllama({ baseURL: candidate.baseUrl, fetch })(candidate.model);
  }
}

/** What went wrong with a provider, in the classes callers act on differently. */
export type ProviderFailureKind = "rate_limit" | "auth" | "context_overflow" | "output_limit" | "unreachable" | "timeout" | "bad_reply" | "cancelled" | "other";

/** A provider call that failed, classified, with the provider named. */
export class ProviderFailure extends Error {
  constructor(
    readonly kind: ProviderFailureKind,
    readonly provider: ProviderKind,
    readonly model: string,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(`${provider} (${model}): ${message}`);
  }
}

const CONTEXT_WORDS = /context[ _-]?(length|window)|too many tokens|prompt is too long|maximum context|input is too long|too long for the model|num_ctx/i;
const OUTPUT_WORDS = /max[ _-]?tokens|output limit|max_output|maximum output/i;

/** Classifies anything a provider call threw: HTTP statuses first, then the provider's wording. */
export function classifyFailure(error: unknown, candidate: ProviderCandidate): ProviderFailure {
  if (error instanceof ProviderFailure) return error;
  const make = (kind: ProviderFailureKind, message: string, retryAfter?: number) => new ProviderFailure(kind, candidate.kind, candidate.model, message, retryAfter);
  if (isAbort(error)) return make("cancelled", "the request was cancelled");
  // Refused by the outbound guard: a redirect is an answer strand does not take; a forbidden address is never contacted.
  if (error instanceof OutboundRefusal) return error.reason === "redirect" ? make("bad_reply", error.message) : make("unreachable", error.reason === "address" ? `refusing to call ${error.message}` : error.message);
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const said = providerMessage(error) ?? error.message;
    if (status === 429) return make("rate_limit", `rate limited by the provider: ${said}`, retryAfter(error.responseHeaders));
    if (status === 401 || status === 403) return make("auth", `the provider refused the credentials (HTTP ${status}): ${said}`);
    if ((status === 413 || status === 400 || status === 422) && CONTEXT_WORDS.test(said)) return make("context_overflow", `the conversation is longer than the model's context: ${said}`);
    if ((status === 400 || status === 422) && OUTPUT_WORDS.test(said)) return make("output_limit", `the reply would exceed the model's output limit: ${said}`);
    if (status === undefined) return make("unreachable", `could not reach ${candidate.baseUrl}: ${said}`);
    return make("other", `HTTP ${status}: ${said}`);
  }
  const message = error instanceof Error ? error.message : typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string" ? (error as { message: string }).message : typeof error === "string" ? error : JSON.stringify(error);
  if (CONTEXT_WORDS.test(message)) return make("context_overflow", `the conversation is longer than the model's context: ${message}`);
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|fetch failed|ECONNRESET|socket hang up/i.test(message + String((error as { cause?: unknown })?.cause ?? ""))) {
    return make("unreachable", `could not reach ${candidate.baseUrl}: ${message}`);
  }
  return make("other", message);
}

/** True for an error that means the caller cancelled. */
export function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "ResponseAborted" || /aborted/i.test(error.message) && error.name !== "APICallError");
}

/** The message a provider put in its error body (`{error: {message}}`, `{error: "…"}`, `{message}`), if any. */
function providerMessage(error: APICallError): string | undefined {
  const data = error.data as { error?: { message?: string } | string; message?: string } | undefined;
  if (data) {
    if (typeof data.error === "string") return data.error;
    if (data.error?.message) return data.error.message;
    if (data.message) return data.message;
  }
  if (!error.responseBody) return undefined;
  try {
    const body = JSON.parse(error.responseBody) as { error?: { message?: string } | string; message?: string };
    if (typeof body.error === "string") return body.error;
    return body.error?.message ?? body.message;
  } catch {
    return error.responseBody.slice(0, 300);
  }
}

function retryAfter(headers: Record<string, string> | undefined): number | undefined {
  const value = headers?.["retry-after"];
  if (!value) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined;
}
