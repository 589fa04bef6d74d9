/**
 * HTTP adapter of the pipeline tooling: `POST /api/pipelines/{parse, validate, prepare, dag, format, lint,
 * stats, diff, export}`. Each body is checked by its schema (a missing `toml_content` is `MISSING_FIELD`);
 * engine failures become the endpoint's domain code, with the engine's code and position in `detail`.
 */
import { createRoute, OpenAPIHono, type z } from "@hono/zod-openapi";
import { EngineError } from "../../../engine/findings.js";
import { bodyHook } from "../../body-hook.js";
import type { ServiceErrorCode } from "../../error-codes.js";
import { ServiceError } from "../../errors.js";
import { DagResult, engineWorkResponses, failureResponse, jsonBody, jsonResponse, LintResult } from "../../openapi-shapes.js";
import * as schemas from "./schemas.js";
import * as tooling from "./service.js";

/** The operation id of a tool: `validatePipeline`, `diffPipelines`, `pipelineStats`, … */
const TOOL_OPERATION: Record<(typeof tooling.TOOLING_NAMES)[number], string> = {
  parse: "parsePipeline",
  validate: "validatePipeline",
  prepare: "preparePipeline",
  dag: "pipelineDag",
  format: "formatPipeline",
  lint: "lintPipeline",
  stats: "pipelineStats",
  diff: "diffPipelines",
  export: "exportPipeline",
};

function toolRoute(name: (typeof tooling.TOOLING_NAMES)[number], summary: string, body: z.ZodType, result: z.ZodType) {
  return createRoute({
    method: "post",
    path: `/api/pipelines/${name}`,
    operationId: TOOL_OPERATION[name],
    tags: ["pipeline tooling"],
    summary,
    request: jsonBody(body),
    responses: {
      200: jsonResponse(result, "the result"),
      400: failureResponse("a missing field, or a pipeline the engine refuses"),
      ...engineWorkResponses,
    },
  });
}

/** Runs a tool, turning engine errors into the endpoint's error code. */
async function tool<T>(code: ServiceErrorCode, work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    const { finding } = error;
    const where = finding.line != null ? `, line ${finding.line}, column ${finding.column ?? 1}` : "";
    throw new ServiceError(tooling.isParseFailure(error) ? "PARSE_ERROR" : code, finding.message, {
      detail: `${finding.code}${where}`,
      ...(finding.suggestion ? { suggestion: finding.suggestion } : {}),
    });
  }
}

/** The tooling router. */
export function toolingRoutes(): OpenAPIHono {
  const router = new OpenAPIHono();
  router.openapi(toolRoute("parse", "Parse a pipeline into its structure", schemas.TomlBody, schemas.ParseResult), async (c) => {
    const { toml_content } = (await c.req.json()) as z.infer<typeof schemas.TomlBody>;
    return c.json((await tool("PARSE_ERROR", () => tooling.parsePipeline(toml_content))) as z.infer<typeof schemas.ParseResult>, 200);
  }, bodyHook);
  router.openapi(toolRoute("validate", "Validate a pipeline (E codes); a syntax error is a result, not a failure", schemas.TomlBody, schemas.ValidateResult), async (c) => {
    const { toml_content } = (await c.req.json()) as z.infer<typeof schemas.TomlBody>;
    return c.json(await tool("VALIDATE_ERROR", () => tooling.validateText(toml_content)), 200);
  }, bodyHook);
  router.openapi(toolRoute("prepare", "Expand a pipeline into jobs with rendered commands", schemas.PrepareBody, schemas.PrepareResult), async (c) => {
    const body = (await c.req.json()) as z.infer<typeof schemas.PrepareBody>;
    const { toml_content, ...options } = body;
    return c.json(await tool("PREPARE_ERROR", () => tooling.prepareText(toml_content, options)), 200);
  }, bodyHook);
  router.openapi(toolRoute("dag", "The rule graph, or the job graph with expanded: true", schemas.DagBody, DagResult), async (c) => {
    const body = (await c.req.json()) as z.infer<typeof schemas.DagBody>;
    const { toml_content, ...options } = body;
    return c.json(await tool("DAG_ERROR", () => tooling.dagOf(toml_content, options)), 200);
  }, bodyHook);
  router.openapi(toolRoute("format", "Format a pipeline canonically (comments kept)", schemas.TomlBody, schemas.FormatResult), async (c) => {
    const { toml_content } = (await c.req.json()) as z.infer<typeof schemas.TomlBody>;
    return c.json(await tool("PARSE_ERROR", () => tooling.formatText(toml_content)), 200);
  }, bodyHook);
  router.openapi(toolRoute("lint", "Lint a pipeline (E, W and info findings)", schemas.LintBody, LintResult), async (c) => {
    const body = (await c.req.json()) as z.infer<typeof schemas.LintBody>;
    return c.json(await tool("LINT_ERROR", () => tooling.lintText(body.toml_content, body.strict ?? false)), 200);
  }, bodyHook);
  router.openapi(toolRoute("stats", "Pipeline statistics", schemas.TomlBody, schemas.StatsResult), async (c) => {
    const { toml_content } = (await c.req.json()) as z.infer<typeof schemas.TomlBody>;
    return c.json(await tool("STATS_ERROR", () => tooling.statsOf(toml_content)), 200);
  }, bodyHook);
  router.openapi(toolRoute("diff", "Compare two pipelines", schemas.DiffBody, schemas.DiffResult), async (c) => {
    const body = (await c.req.json()) as z.infer<typeof schemas.DiffBody>;
    return c.json((await tool("DIFF_ERROR", () => tooling.diffTexts(body.toml_a, body.toml_b))) as unknown as z.infer<typeof schemas.DiffResult>, 200);
  }, bodyHook);
  router.openapi(toolRoute("export", "A Dockerfile or Apptainer definition for a pipeline", schemas.ExportBody, schemas.ExportResult), async (c) => {
    const body = (await c.req.json()) as z.infer<typeof schemas.ExportBody>;
    return c.json(await tool("EXPORT_ERROR", () => tooling.exportText(body.toml_content, body.format ?? "docker")), 200);
  }, bodyHook);
  return router;
}
