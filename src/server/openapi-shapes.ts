/**
 * The API shapes more than one domain answers with (the error body, deletion results, findings and lint
 * results, the graph of a pipeline, saved pipelines as other domains return them), and shorthands for
 * `@hono/zod-openapi` route definitions, so route files read as a list of endpoints. Domains import shapes
 * from here, never from each other's `schemas.ts`.
 */
import { z } from "@hono/zod-openapi";
import { FATAL_CODES } from "../engine/findings.js";
import { SERVICE_ERROR_CODES } from "./error-codes.js";

/** Every code an error body can carry that is a name: the service's codes, then the engine's fatal ones. */
const NAMED_ERROR_CODES = [...new Set<string>([...SERVICE_ERROR_CODES, ...FATAL_CODES])] as [string, ...string[]];

/** The code of an error body: a named code, or the E code of a check whose error stopped the request. */
const ErrorCodeSchema = z.union([z.enum(NAMED_ERROR_CODES), z.string().regex(/^E\d{3}$/)]).openapi("ErrorCode", {
  description: "what went wrong: a service code (docs/reference/error-codes.md), an engine code, or a validate E code",
});

/** The error body every failure answers with (docs/reference/error-codes.md). */
export const ErrorBodySchema = z
  .object({
    code: ErrorCodeSchema,
    message: z.string(),
    detail: z.string().optional(),
    suggestion: z.string().optional(),
  })
  .openapi("Error");

/** One sample to use: a name (letters, digits, '.', '_', '-', not starting with '.' or '-') or first:N. */
const sampleEntry = z
  .string()
  .max(200)
  .regex(/^(first:\d{1,9}|[A-Za-z0-9][A-Za-z0-9._-]*)$/, "a sample name (letters, digits, '.', '_' or '-', starting with a letter or digit) or first:N");

/** The samples a request uses, the same shape on every endpoint: a list of names and first:N entries. */
export const SamplesSchema = z
  .array(sampleEntry)
  .max(10_000)
  .openapi({ description: 'samples to use: names (and pair ids), or "first:N"; e.g. ["S1", "S2"] or ["first:2"]', example: ["S1", "S2"] });

/** What a DELETE answers: the id of what is gone. */
export const Deleted = z.object({ deleted: z.string() }).openapi("Deleted");

/** One finding of validate or lint, positioned in the pipeline text. */
export const FindingSchema = z
  .object({
    code: z.string(),
    severity: z.enum(["error", "warning", "info"]),
    message: z.string(),
    rule: z.string().nullable(),
    suggestion: z.string().nullable(),
    line: z.number().nullable(),
    column: z.number().nullable(),
  })
  .openapi("Finding");

/** A lint result: the tooling's answer, and the validation saved pipelines and templates carry. */
export const LintResult = z.object({ valid: z.boolean(), errors: z.array(FindingSchema), warnings: z.array(FindingSchema), info: z.array(FindingSchema) }).openapi("LintResult");

/** The rule or job graph of a pipeline: the tooling's answer, and the base of a run's DAG status. */
export const DagResult = z
  .object({
    nodes: z.array(z.object({ id: z.string(), label: z.string(), rule: z.string(), environment: z.string(), threads: z.number(), memory: z.string().nullable(), level: z.number() })),
    edges: z.array(z.object({ from: z.string(), to: z.string(), kind: z.enum(["file", "declared"]) })),
    levels: z.array(z.array(z.string())),
    critical_path: z.array(z.string()),
    metrics: z.object({ nodes: z.number(), edges: z.number(), max_depth: z.number(), max_width: z.number() }).openapi({ description: "of the whole graph, also when it comes in pages" }),
    next_cursor: z.string().nullable().openapi({ description: "the next page of a graph larger than one page (send it as cursor); null on the last page" }),
  })
  .openapi("DagResult");

/** Who may read a saved pipeline. */
export const VisibilitySchema = z.enum(["private", "workspace", "link"]).openapi({ description: "private (owner and administrators), workspace (every signed-in user may read and fork) or link (readable through a share link)" });

/** A saved pipeline's id in a path. */
export const PipelineIdParam = z.object({ id: z.string().min(1).max(128).openapi({ param: { name: "id", in: "path" }, description: "pipeline id" }) });

/** A saved pipeline without its text, as listings show it. */
export const PipelineSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    version: z.string().nullable(),
    description: z.string().nullable(),
    tags: z.array(z.string()),
    visibility: VisibilitySchema,
    owner: z.string(),
    forked_from: z.string().nullable(),
    rules_count: z.number().int(),
    revision: z.number().int().openapi({ description: "grows by one with every change; send it back with PUT to refuse lost updates" }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("PipelineSummary");

/** A saved pipeline with its text. */
export const SavedPipeline = PipelineSummary.extend({ toml_content: z.string() }).openapi("SavedPipeline");

/** A saved pipeline as a write answers it: with the lint result of its text. */
export const SavedPipelineWithValidation = SavedPipeline.extend({ validation: LintResult }).openapi("SavedPipelineWithValidation");

/** A JSON response with this schema. */
export const jsonResponse = <T>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });

/** A failure answered with the error body. */
export const failureResponse = (description: string) => jsonResponse(ErrorBodySchema, description);

/** The answers of an operation whose engine work runs in the worker pool: past its limits, or no room to queue it. */
export const engineWorkResponses = {
  422: failureResponse("the engine work took longer or needed more memory than the service allows (WORK_LIMIT)"),
  503: failureResponse("too many engine tasks are waiting (SERVICE_BUSY, with Retry-After)"),
};

/** A required JSON request body with this schema. */
export const jsonBody = <T>(schema: T) => ({ body: { required: true, content: { "application/json": { schema } } } });
