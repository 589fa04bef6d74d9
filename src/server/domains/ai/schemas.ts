/**
 * Request and response shapes of the AI endpoints (`/api/ai/*`), as zod schemas that validate requests
 * and describe every answer in the OpenAPI document.
 */
import { z } from "@hono/zod-openapi";

/** Longest intent accepted (a paragraph, not a document). */
export const MAX_INTENT_CHARS = 4000;

const ProviderEntry = z.object({
  provider: z.string(),
  model: z.string(),
  api_url: z.string().nullable().openapi({ description: "where it is called; null unless it is your own provider or you are an administrator" }),
  source: z.string(),
});
const StoredSettings = z
  .object({ provider: z.string(), model: z.string().nullable(), api_url: z.string().nullable(), has_api_key: z.boolean(), updated_at: z.string() })
  .nullable();

export const AiConfigView = z
  .object({
    provider: z.string().nullable().openapi({ description: "the provider that answers first for you; null when none is usable" }),
    model: z.string().nullable(),
    api_url: z.string().nullable().openapi({ description: "where the first provider is called; null unless it is your own or you are an administrator" }),
    is_configured: z.boolean(),
    source: z.string().nullable().openapi({ description: "where the first provider comes from: user, server, environment, discovered or local" }),
    chain: z.array(ProviderEntry).openapi({ description: "every usable provider, in the order they are tried" }),
    server: StoredSettings.openapi({ description: "the shared settings saved through this API (never the key; api_url only for administrators)" }),
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

const ProviderUsed = z.object({ provider: z.string(), model: z.string() }).openapi({ description: "the provider and model that answered" });

export const ExplainRequestSchema = z
  .object({
    run_id: z.string().min(1).max(128),
    job: z.string().min(1).max(500).optional().openapi({ description: "the failed job to explain (default: the first failure)" }),
    language: z.string().trim().min(1).max(40).optional().openapi({ description: "the language of the explanation (default English); the quoted evidence stays as it is" }),
  })
  .openapi("ExplainRequest");

const Citation = z.object({
  kind: z.enum(["stderr", "exit_code", "command"]),
  job: z.string().nullable(),
  text: z.string().openapi({ description: "the stderr line, `exit code N` or the command, exactly as given to the model" }),
});

export const ExplainResultSchema = z
  .object({
    run_id: z.string(),
    job: z.string().nullable().openapi({ description: "the job explained (null: the run failed before any job)" }),
    summary: z.string().openapi({ description: "the model's explanation (Markdown)" }),
    failures: z.array(
      z.object({
        job: z.string().nullable(),
        rule: z.string().nullable(),
        exit_code: z.number().int().nullable(),
        command: z.string().nullable().openapi({ description: "the command the job ran, rendered by the engine" }),
        stderr_tail: z.array(z.string()).openapi({ description: "the last lines of the job's stderr (at most 60, each cut to 400 characters)" }),
        diagnosis: z.object({ pattern: z.string(), category: z.string(), likely_cause: z.string(), suggestions: z.array(z.string()) }),
      }),
    ).openapi({ description: "the explained job first, then up to 4 other failed jobs, each with the deterministic diagnosis of GET /api/runs/{id}/diagnostics" }),
    root_cause: z
      .object({ rule: z.string().nullable(), job: z.string().nullable(), error_type: z.string(), evidence: z.string(), confidence: z.number() })
      .nullable()
      .openapi({ description: "from the deterministic diagnosis of the explained job, not from the model" }),
    fix_suggestion: z.object({ action: z.string(), automated: z.literal(false), estimated_impact: z.string() }).nullable(),
    citations: z.array(Citation).openapi({ description: "the evidence the summary really quotes, found by matching it against the stderr tail, exit code and command" }),
    provider: ProviderUsed,
  })
  .openapi("ExplainResult");

export const InterpretRequestSchema = z
  .object({
    run_id: z.string().min(1).max(128),
    result_type: z.enum(["general", "deg", "variants", "qc"]).optional().openapi({ description: "what to look for: deg (differential expression), variants, qc, or general (the default)" }),
  })
  .openapi("InterpretRequest");

export const InterpretResultSchema = z
  .object({
    run_id: z.string(),
    result_type: z.enum(["general", "deg", "variants", "qc"]),
    narrative: z.string(),
    highlights: z.array(z.object({ finding: z.string(), significance: z.string(), supporting_evidence: z.string().openapi({ description: "the result file(s) the finding comes from" }) })),
    caveats: z.array(z.string()).openapi({ description: "the model's caveats; one saying the text is AI-written when the model gave none" }),
    suggested_next: z.array(z.string()),
    missing_sections: z.array(z.string()).openapi({ description: "sections the model left out (Narrative, Highlights, Caveats, Suggested next): their lists are empty" }),
    files: z.array(z.object({ path: z.string(), size_bytes: z.number().int(), header: z.string().nullable().openapi({ description: "the first line (a table's header); null when binary or not read" }) })),
    provider: ProviderUsed,
  })
  .openapi("InterpretResult");

export const OptimizeRequestSchema = z
  .object({
    pipeline_id: z.string().min(1).max(128).openapi({ description: "a saved pipeline you may read (a translate draft id is NOT_FOUND: save its toml_content first)" }),
    goal: z.enum(["speed", "cost", "sensitivity"]),
    constraints: z
      .object({
        max_memory: z.string().regex(/^\s*\d+(\.\d+)?\s*[KMGT]?B?\s*$/i, "a memory size such as 16G or 512M").optional(),
        max_threads: z.number().int().min(1).max(1024).optional(),
      })
      .optional()
      .openapi({ description: "limits per rule; a proposal above them is rejected" }),
  })
  .openapi("OptimizeRequest");

export const OptimizeResultSchema = z
  .object({
    pipeline_id: z.string(),
    goal: z.enum(["speed", "cost", "sensitivity"]),
    optimized_toml: z.string().openapi({ description: "the proposal, validated by the engine; nothing is saved" }),
    changes: z.array(
      z.object({
        rule: z.string().openapi({ description: "the rule, or workflow for tables outside the rules" }),
        field: z.string(),
        before: z.string(),
        after: z.string(),
        rationale: z.string().openapi({ description: "the model's reason, from its Changes list" }),
        expected_impact: z.string(),
      }),
    ).openapi({ description: "computed by comparing the rules' settings before and after" }),
    estimated: z.object({
      time_saved: z.string(),
      memory_reduction: z.string(),
      basis: z.enum(["run_history", "none"]),
      runs_considered: z.number().int(),
      method: z.string().openapi({ description: "how the figures were reckoned" }),
    }),
    validation: z.object({ valid: z.boolean(), warnings: z.array(Finding) }),
    provider: ProviderUsed,
    rounds: z.number().int().openapi({ description: "model replies it took (1 = accepted at once)" }),
  })
  .openapi("OptimizeResult");
