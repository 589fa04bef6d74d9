/**
 * HTTP adapter of the AI domain: provider settings (`GET/POST /api/ai/config`, `POST /api/ai/test`) and
 * translate (`POST /api/ai/translate`, and `…/stream` as server-sent events), and explain, interpret and
 * optimize. Every result is a proposal: nothing here saves a pipeline or starts a run.
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { callerOf } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import { failureResponse, jsonBody, jsonResponse } from "../../openapi-shapes.js";
import { namedEventStream } from "./event-stream.js";
import { ChainFailure, Harness } from "./harness.js";
import { explain } from "./explain.js";
import { interpret } from "./interpret.js";
import { optimize } from "./optimize.js";
import {
  AiConfigChange,
  AiConfigView,
  AiTestResult,
  ExplainRequestSchema,
  ExplainResultSchema,
  InterpretRequestSchema,
  InterpretResultSchema,
  OptimizeRequestSchema,
  OptimizeResultSchema,
  TranslateRequestSchema,
  TranslateResultSchema,
} from "./schemas.js";
import { harnessFor, type AiContext } from "./service.js";
import { translate } from "./translate.js";

const notConfiguredResponse = failureResponse("AI_NOT_CONFIGURED: no usable AI provider");

const getConfigRoute = createRoute({
  method: "get",
  path: "/api/ai/config",
  operationId: "getAiConfig",
  tags: ["ai"],
  summary: "The AI provider that answers for you, every usable provider in chain order, and the saved settings (never a key)",
  responses: { 200: jsonResponse(AiConfigView, "the configuration") },
});

const postConfigRoute = createRoute({
  method: "post",
  path: "/api/ai/config",
  operationId: "setAiConfig",
  tags: ["ai"],
  summary: "Set the shared provider (administrators) or your own; the key is write-only and kept sealed",
  request: jsonBody(AiConfigChange),
  responses: {
    200: jsonResponse(AiConfigView, "the configuration after the change"),
    400: failureResponse("unknown provider, unusable settings or a bad URL"),
    403: failureResponse("only administrators change the shared provider"),
  },
});

const testRoute = createRoute({
  method: "post",
  path: "/api/ai/test",
  operationId: "testAiProvider",
  tags: ["ai"],
  summary: "Ask the first provider of your chain for a one-word reply; says whether it worked and why not",
  responses: { 200: jsonResponse(AiTestResult, "the outcome (success false with the provider's error when it failed)"), 503: notConfiguredResponse },
});

const translateRoute = createRoute({
  method: "post",
  path: "/api/ai/translate",
  operationId: "translateIntent",
  tags: ["ai"],
  summary: "A pipeline drafted from a sentence, validated by the engine (errors corrected by the model, up to 3 rounds); never saved by itself",
  request: jsonBody(TranslateRequestSchema),
  responses: {
    200: jsonResponse(TranslateResultSchema, "the validated draft"),
    400: failureResponse("AI_TRANSLATE_ERROR: every provider failed or the draft kept errors (the message may suggest a template)"),
    503: notConfiguredResponse,
  },
});

const translateStreamRoute = createRoute({
  method: "post",
  path: "/api/ai/translate/stream",
  operationId: "translateIntentStream",
  tags: ["ai"],
  summary: "Translate with progress as server-sent events: progress (intent, match, generate, validate, correct), then done with the draft, or error",
  description:
    "Named events: `progress` with `{step, message}` (intent adds `intent`, match adds `templates_count`, generate adds `round` and `provider`, validate adds `valid` and `errors`); " +
    "`done` with the same body as POST /api/ai/translate (it carries `pipeline_id`); `error` with the error body. Keep-alive `: ping` comments. Never compressed. Leaving the stream cancels the model call.",
  request: jsonBody(TranslateRequestSchema),
  responses: {
    200: { description: "the event stream", content: { "text/event-stream": { schema: z.string() } } },
    503: notConfiguredResponse,
  },
});

const explainRoute = createRoute({
  method: "post",
  path: "/api/ai/explain",
  operationId: "explainRunFailure",
  tags: ["ai"],
  summary: "Why a run's job failed: the deterministic diagnosis plus the model's explanation, grounded in the job's stderr tail, exit code and command, with the evidence it quotes",
  request: jsonBody(ExplainRequestSchema),
  responses: {
    200: jsonResponse(ExplainResultSchema, "the explanation"),
    400: failureResponse("BAD_REQUEST: the run has no failed job (or not the one named); AI_EXPLAIN_ERROR: every provider failed"),
    404: failureResponse("no run you may read has this id"),
    503: notConfiguredResponse,
  },
});

const interpretRoute = createRoute({
  method: "post",
  path: "/api/ai/interpret",
  operationId: "interpretRunResults",
  tags: ["ai"],
  summary: "What a run's results show: narrative, highlights, caveats and next steps, grounded in its result files and their first lines",
  request: jsonBody(InterpretRequestSchema),
  responses: {
    200: jsonResponse(InterpretResultSchema, "the interpretation"),
    400: failureResponse("BAD_REQUEST: the run has no result files yet; AI_INTERPRET_ERROR: every provider failed"),
    404: failureResponse("no run you may read has this id"),
    503: notConfiguredResponse,
  },
});

const optimizeRoute = createRoute({
  method: "post",
  path: "/api/ai/optimize",
  operationId: "optimizePipeline",
  tags: ["ai"],
  summary: "A saved pipeline tuned for speed, cost or sensitivity, validated by the engine, with the changes compared rule by rule and effects estimated from your runs of it; never saved",
  request: jsonBody(OptimizeRequestSchema),
  responses: {
    200: jsonResponse(OptimizeResultSchema, "the proposal"),
    400: failureResponse("AI_OPTIMIZE_ERROR: every provider failed, or the proposal kept engine errors or broke the constraints"),
    404: failureResponse("no saved pipeline you may read has this id (a translate draft is not saved)"),
    503: notConfiguredResponse,
  },
});

/** The AI router. */
export function aiRoutes(context: AiContext): OpenAPIHono {
  const router = new OpenAPIHono();
  router.openapi(getConfigRoute, async (c) => c.json(await context.settings.view(callerOf(c)), 200));
  router.openapi(postConfigRoute, async (c) => c.json(await context.settings.change(callerOf(c), c.req.valid("json")), 200));

  router.openapi(testRoute, async (c) => {
    const harness = await harnessFor(context, callerOf(c));
    const first = harness.chain[0]!;
    const started = performance.now();
    try {
      // Only the first provider: the test is of the settings that answer first, not of the fallbacks.
      const single = new Harness([first], context.observe, context.callTimeoutMs);
      const answer = await single.call({ task: "test", system: "You answer with one word.", messages: [{ role: "user", content: "Reply with the word OK." }], maxOutputTokens: 16, signal: c.req.raw.signal });
      return c.json({ success: true, message: `Test successful: ${answer.text.trim().slice(0, 200)}`, provider: first.kind, model: first.model, latency_ms: answer.latency_ms }, 200);
    } catch (error) {
      const reason = error instanceof ChainFailure ? error.message : error instanceof Error ? error.message : String(error);
      return c.json({ success: false, message: `Test failed: ${reason}`, provider: first.kind, model: first.model, latency_ms: Math.round(performance.now() - started) }, 200);
    }
  });

  router.openapi(translateRoute, async (c) => {
    const caller = callerOf(c);
    const harness = await harnessFor(context, caller);
    const body = c.req.valid("json");
    const result = await translate({ request: { intent: body.intent, data: body.context?.data }, owner: caller.id, harness, reader: context.readerFor(caller), knowledge: context.knowledge, signal: c.req.raw.signal });
    return c.json(result, 200);
  });

  // AI_NOT_CONFIGURED comes first, as for translate; then the run or pipeline is read as the caller (404 for anyone else's).
  router.openapi(explainRoute, async (c) => {
    const caller = callerOf(c);
    const harness = await harnessFor(context, caller);
    const result = await explain({ request: c.req.valid("json"), harness, reader: context.readerFor(caller), knowledge: context.knowledge, signal: c.req.raw.signal });
    return c.json(result, 200);
  });

  router.openapi(interpretRoute, async (c) => {
    const caller = callerOf(c);
    const harness = await harnessFor(context, caller);
    const result = await interpret({ request: c.req.valid("json"), harness, reader: context.readerFor(caller), knowledge: context.knowledge, signal: c.req.raw.signal });
    return c.json(result, 200);
  });

  router.openapi(optimizeRoute, async (c) => {
    const caller = callerOf(c);
    const harness = await harnessFor(context, caller);
    const result = await optimize({ request: c.req.valid("json"), harness, reader: context.readerFor(caller), knowledge: context.knowledge, signal: c.req.raw.signal });
    return c.json(result, 200);
  });

  router.openapi(translateStreamRoute, async (c) => {
    const caller = callerOf(c);
    const harness = await harnessFor(context, caller); // AI_NOT_CONFIGURED as a plain error, before any stream
    const body = c.req.valid("json");
    return namedEventStream(c, async (send, signal) => {
      try {
        const result = await translate({
          request: { intent: body.intent, data: body.context?.data },
          owner: caller.id,
          harness,
          reader: context.readerFor(caller),
          knowledge: context.knowledge,
          signal,
          onProgress: (progress) => send("progress", progress),
        });
        send("progress", { step: "done", message: "the draft is ready", pipeline_id: result.pipeline_id });
        send("done", result);
      } catch (error) {
        if (signal.aborted) return;
        const failure = error instanceof ServiceError ? error : new ServiceError("AI_TRANSLATE_ERROR", error instanceof Error ? error.message : String(error));
        send("error", failure.body());
      }
    }) as never;
  });
  return router;
}
