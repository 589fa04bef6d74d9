/**
 * Request and response shapes of the AI endpoints (`/api/ai/*`), as zod schemas that validate requests
 * and describe every answer in the OpenAPI document.
 */
import { z } from "@hono/zod-openapi";

/** Longest intent accepted (a paragraph, not a document). */
export const MAX_INTENT_CHARS = 4000;

const ProviderEntry = z.object({ provider: z.string(), model: z.string(), api_url: z.string(), source: z.string() });
const StoredSettings = z
  .object({ provider: z.string(), model: z.string().nullable(), api_url: z.string().nullable(), has_api_key: z.boolean(), updated_at: z.string() })
  .nullable();

export const AiConfigView = z
  .object({
    provider: z.string().nullable().openapi({ description: "the provider that answers first for you; null when none is usable" }),
    model: z.string().nullable(),
    api_url: z.string().nullable(),
    is_configured: z.boolean(),
    source: z.string().nullable().openapi({ description: "where the first provider comes from: user, server, environment, discovered or local" }),
    chain: z.array(ProviderEntry).openapi({ description: "every usable provider, in the order they are tried" }),
    server: StoredSettings.openapi({ description: "the shared settings saved through this API (never the key)" }),
    user: StoredSettings.openapi({ description: "your own settings (never the key)" }),
    can_change_server: z.boolean(),
  })
  .openapi("AiConfig");

export const AiConfigChange = z
  .object({
    provider: z.string().min(1).max(40).openapi({ description: "anthropic (or claude), openai, deepseek, ollama; disabled removes the settings" }),
    api_key: z.string().max(500).nullable().optional().openapi({ description: "write-only; kept sealed; leave out to keep the stored key" }),
    model: z.string().max(200).nullable().optional(),
    api_url: z.string().max(500).nullable().optional().openapi({ description: "base URL of the provider's API (a local server speaking its protocol works too)" }),
    scope: z.enum(["server", "user"]).optional().openapi({ description: "server (administrators; the default for them) or user (your own provider)" }),
  })
  .openapi("AiConfigChange");

export const AiTestResult = z
  .object({ success: z.boolean(), message: z.string(), provider: z.string(), model: z.string(), latency_ms: z.number().int() })
  .openapi("AiTestResult");

export const TranslateRequestSchema = z
  .object({
    intent: z.string().trim().min(1, "describe the analysis").max(MAX_INTENT_CHARS),
    context: z
      .object({
        data: z.record(z.string(), z.unknown()).optional().openapi({ description: "what the data looks like (formats, pairing, samples, organism…); part of the request's identity for the cache" }),
      })
      .optional(),
  })
  .openapi("TranslateRequest");

const Finding = z.object({ code: z.string(), message: z.string(), suggestion: z.string().nullable().optional() });

export const TranslateResultSchema = z
  .object({
    pipeline_id: z.string().openapi({ description: "the draft's id; a draft is never saved by itself (save its toml_content)" }),
    toml_content: z.string(),
    explanation: z.object({
      summary: z.string(),
      steps: z.array(z.object({ rule: z.string(), purpose: z.string(), tool: z.string(), key_params: z.string(), why_chosen: z.string() })),
    }),
    alternatives: z
      .array(z.object({ rule: z.string(), tool: z.string(), alternatives: z.array(z.string()), reason: z.string() }))
      .openapi({ description: "other tools for the draft's steps, from strand's notes on each kind of analysis" }),
    confidence: z.number(),
    validation: z.object({ valid: z.boolean(), warnings: z.array(Finding) }),
    provider: z.object({ provider: z.string(), model: z.string() }),
    rounds: z.number().int().openapi({ description: "model replies it took (1 = valid at once)" }),
    cached: z.boolean(),
  })
  .openapi("TranslateResult");
