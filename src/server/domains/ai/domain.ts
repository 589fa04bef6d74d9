/**
 * The AI domain as the app mounts it: provider settings with sealed keys, the one generation harness and its
 * endpoints. Its reads of the rest of the service come in as `readerFor` (composed by ai-capabilities.ts from
 * the other domains' read paths), so nothing here can write outside the AI's own settings.
 */
import type { AddressLookup } from "../../../engine/public-address.js";
import type { Caller } from "../../caller.js";
import type { DomainMount } from "../../domain-mount.js";
import { lazySealer, SecretBox } from "../../secret-box.js";
import type { AiEnvironment, ServiceMode } from "../../settings.js";
import type { AiSettingsStore } from "../../store/ai-settings/contract.js";
import { bundledKnowledge } from "./bundled-knowledge.js";
import { CallGate, type CallObserver } from "./harness.js";
import { providerChain } from "./providers.js";
import type { AiReader } from "./reader.js";
import type { AiKnowledge } from "./read-tools.js";
import { aiRoutes } from "./routes.js";
import type { AiContext } from "./service.js";
import { AiSettings } from "./settings.js";

export type { AiKnowledge } from "./read-tools.js";

/** What the AI domain needs. */
export interface AiDependencies {
  store: AiSettingsStore;
  mode: ServiceMode;
  /** The provider settings of the environment (`SERVICE_AI_*`, discovered keys). */
  ai: AiEnvironment;
  /** `SERVICE_AI_ALLOW_PRIVATE_URLS`: users of a team service may point their own provider at private addresses. */
  allowPrivateUrls: boolean;
  /** `SERVICE_SECRET_KEY`, else a key file made in `configDir` on first use. */
  secretKey: string | undefined;
  configDir: string;
  /** The caller's read-only capabilities. */
  readerFor(caller: Caller): AiReader;
  /** Where each model call's tokens and latency go. */
  observe: CallObserver;
  callTimeoutMs?: number;
  knowledge?: AiKnowledge;
  /** How provider hosts are resolved (tests rebind names). */
  lookup?: AddressLookup;
}

/** The AI endpoints, the context the copilot shares, and the kind of provider the chain would try first. */
export function aiDomain(deps: AiDependencies): DomainMount & { context: AiContext; firstProvider(): string | null } {
  const settings = new AiSettings(deps.store, lazySealer(() => SecretBox.fromConfig({ secretKey: deps.secretKey, configDir: deps.configDir })), {
    ai: deps.ai,
    allowPrivateUrls: deps.allowPrivateUrls,
    mode: deps.mode,
    lookup: deps.lookup,
  });
  const context: AiContext = {
    settings,
    knowledge: deps.knowledge ?? bundledKnowledge,
    readerFor: deps.readerFor,
    callTimeoutMs: deps.callTimeoutMs,
    gate: new CallGate(4),
    observe: deps.observe,
  };
  return { routers: [aiRoutes(context)], context, firstProvider: () => providerChain({ ai: deps.ai })[0]?.kind ?? null };
}
