/**
 * AI provider settings: the shared settings (scope "server", changed only by administrators in team mode)
 * and each user's own, kept in the store with the key sealed by the service's secret box. The key is
 * write-only: it is never returned, logged or put in an error. Settings resolve into the provider chain
 * the harness calls (the caller's own, then the shared one or the environment's, then discovered ones).
 */
import { AddressRefusal, vetHost, type AddressLookup } from "../../../engine/public-address.js";
import type { Caller } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import { type AiSettingsRecord, type AiSettingsStore, SERVER_AI_SCOPE } from "../../store/ai-settings/contract.js";
import { describeCandidate, PROVIDER_KINDS, providerChain, providerKind, unusableReason, type ProviderCandidate, type ProviderSettings } from "./providers.js";
import type { AiEnvironment, ServiceMode } from "../../settings.js";

import type { KeySealer } from "../../secret-box.js";


/** A settings change as requested (`provider: "disabled"` removes the scope's settings). */
export interface SettingsChange {
  provider: string;
  api_key?: string | null;
  model?: string | null;
  api_url?: string | null;
  scope?: "server" | "user";
}

/** What GET /api/ai/config shows: the provider that answers first, whether any does, and the chain. */
export interface AiConfigView {
  provider: string | null;
  model: string | null;
  api_url: string | null;
  is_configured: boolean;
  source: string | null;
  chain: { provider: string; model: string; api_url: string | null; source: string }[];
  server: StoredView | null;
  user: StoredView | null;
  can_change_server: boolean;
}

interface StoredView {
  provider: string;
  model: string | null;
  api_url: string | null;
  has_api_key: boolean;
  updated_at: string;
}

/** Reads and changes AI settings, and resolves the chain for a caller. */
export class AiSettings {
  constructor(
    private readonly store: AiSettingsStore,
    private readonly sealer: KeySealer,
    private readonly options: { ai: AiEnvironment; allowPrivateUrls: boolean; mode: ServiceMode; lookup?: AddressLookup },
  ) {}

  /** The usable providers for this caller, in chain order (empty: AI is not configured). */
  async chainFor(caller: Caller): Promise<ProviderCandidate[]> {
    const [user, server] = await Promise.all([caller.id ? this.store.getAiSettings(caller.id) : null, this.store.getAiSettings(SERVER_AI_SCOPE)]);
    const chain = providerChain({ user: user ? this.settingsOf(user) : null, configured: server ? this.settingsOf(server) : null, ai: this.options.ai });
    // Each call is held to the rule the URL was saved under (for the caller as they are now), with the same resolver.
    return chain.map((candidate) => ({ ...candidate, reach: { allowPrivate: candidate.source === "user" ? this.mayUsePrivate(caller) : candidate.reach.allowPrivate, lookup: this.options.lookup } }));
  }

  /**
   * The read view for a caller (no key, ever). Where the shared, the operator's and discovered providers are
   * is for administrators (an address inside the network is no one else's business): others see null for
   * their URLs, and their own provider's URL.
   */
  async view(caller: Caller): Promise<AiConfigView> {
    const [user, server, chain] = await Promise.all([caller.id ? this.store.getAiSettings(caller.id) : null, this.store.getAiSettings(SERVER_AI_SCOPE), this.chainFor(caller)]);
    const entries = chain.map((candidate) => {
      const entry = describeCandidate(candidate);
      return caller.admin || candidate.source === "user" ? entry : { ...entry, api_url: null };
    });
    const first = entries[0] ?? null;
    const shared = server ? storedView(server) : null;
    return {
      provider: first?.provider ?? null,
      model: first?.model ?? null,
      api_url: first?.api_url ?? null,
      is_configured: chain.length > 0,
      source: first?.source ?? null,
      chain: entries,
      server: shared && !caller.admin ? { ...shared, api_url: null } : shared,
      user: user && caller.id !== SERVER_AI_SCOPE ? storedView(user) : null,
      can_change_server: this.mayChangeServer(caller),
    };
  }

  /** Changes the caller's own settings or (administrators; anyone in personal mode) the shared ones. */
  async change(caller: Caller, change: SettingsChange): Promise<AiConfigView> {
    const scope = this.scopeOf(caller, change.scope);
    if (change.provider.trim().toLowerCase() === "disabled") {
      await this.store.deleteAiSettings(scope);
      return this.view(caller);
    }
    const kind = providerKind(change.provider);
    if (!kind) throw new ServiceError("BAD_REQUEST", `unknown AI provider '${change.provider}'`, { suggestion: `use one of ${PROVIDER_KINDS.join(", ")} (claude is accepted for anthropic), or disabled to remove the settings` });
    const apiUrl = blankToNull(change.api_url);
    if (apiUrl !== null) {
      const host = checkUrl(apiUrl);
      // A user's own URL is reached from the server: in a shared service it must be a public address.
      if (!this.mayUsePrivate(caller)) await publicOnly(host, this.options.lookup);
    }
    const existing = await this.store.getAiSettings(scope);
    // A change without a key keeps the stored one when the provider stays the same (change the model alone).
    let sealed = existing && providerKind(existing.provider) === kind ? existing.sealed_api_key : null;
    const key = blankToNull(change.api_key);
    if (key !== null) sealed = this.sealer.seal(key);
    const settings: ProviderSettings = { provider: kind, api_key: sealed ? this.sealer.open(sealed) : null, api_url: apiUrl, model: blankToNull(change.model) };
    const reason = unusableReason(settings, this.options.ai);
    if (reason) throw new ServiceError("BAD_REQUEST", `these settings cannot be used: ${reason}`, { suggestion: kind === "ollama" ? "give api_url (e.g. http://127.0.0.1:11434) or set OLLAMA_HOST" : `send api_key for ${kind}` });
    await this.store.putAiSettings({ scope, provider: kind, model: settings.model ?? null, api_url: apiUrl, sealed_api_key: sealed, updated_by: caller.id || null });
    return this.view(caller);
  }

  private scopeOf(caller: Caller, asked: "server" | "user" | undefined): string {
    const wanted = asked ?? (this.mayChangeServer(caller) ? "server" : "user");
    if (wanted === "server") {
      if (!this.mayChangeServer(caller)) throw new ServiceError("ACCESS_DENIED", "only administrators change the shared AI provider", { suggestion: 'send scope "user" to set your own provider' });
      return SERVER_AI_SCOPE;
    }
    if (!caller.id) throw new ServiceError("AUTH_REQUIRED", "sign in to keep your own AI settings");
    return caller.id;
  }

  /** Whether this caller's own provider may be at a private address: personal mode, administrators, or SERVICE_AI_ALLOW_PRIVATE_URLS=1. */
  private mayUsePrivate(caller: Caller): boolean {
    return this.options.mode === "personal" || caller.admin || this.options.allowPrivateUrls;
  }

  private mayChangeServer(caller: Caller): boolean {
    return this.options.mode === "personal" || caller.admin;
  }

  private settingsOf(record: AiSettingsRecord): ProviderSettings {
    let key: string | null = null;
    if (record.sealed_api_key) {
      try {
        key = this.sealer.open(record.sealed_api_key);
      } catch {
        key = null; // sealed with another key: unusable until set again (the view shows has_api_key)
      }
    }
    return { provider: record.provider, model: record.model, api_url: record.api_url, api_key: key };
  }
}

function storedView(record: AiSettingsRecord): StoredView {
  return { provider: record.provider, model: record.model, api_url: record.api_url, has_api_key: record.sealed_api_key !== null, updated_at: record.updated_at };
}

function blankToNull(value: string | null | undefined): string | null {
  const text = value?.trim();
  return text ? text : null;
}

async function publicOnly(host: string, lookup: AddressLookup | undefined): Promise<void> {
  try {
    await vetHost(host, { lookup });
  } catch (error) {
    if (!(error instanceof AddressRefusal)) throw error;
    throw new ServiceError("INVALID_URL", error.reason === "dns" ? "api_url's host does not resolve" : `api_url points at a ${error.category ?? "non-public"} address, which a shared service does not call for its users`, {
      suggestion: "use the provider's public address, or ask an administrator to set the shared provider (SERVICE_AI_ALLOW_PRIVATE_URLS=1 lifts this)",
    });
  }
}

/** Checks a base URL's form; its host name. */
function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`);
  } catch {
    throw new ServiceError("INVALID_URL", `api_url '${url.slice(0, 200)}' is not a URL`, { suggestion: "give the provider's base URL, e.g. https://api.anthropic.com/v1" });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new ServiceError("INVALID_URL", "api_url must be an http or https URL");
  if (parsed.username || parsed.password) throw new ServiceError("INVALID_URL", "api_url must not carry credentials", { suggestion: "send the key as api_key" });
  return parsed.hostname;
}
