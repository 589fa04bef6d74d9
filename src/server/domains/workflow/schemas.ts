/**
 * Request and response types of the pipeline tooling endpoints (they generate the OpenAPI document).
 * Bodies are checked by the handlers, so a missing `toml_content` is `MISSING_FIELD`, not a schema error.
 */
import { z } from "@hono/zod-openapi";
import { FindingSchema, SamplesSchema } from "../../openapi-shapes.js";
import { PAGE_LIMITS } from "./tooling.js";

const cursor = z.string().max(32).openapi({ description: "next_cursor of the previous page" });

const toml = z.string().openapi({ description: "pipeline TOML text" });

export const TomlBody = z.object({ toml_content: toml }).openapi("TomlBody");
export const LintBody = z.object({ toml_content: toml, strict: z.boolean().optional() }).openapi("LintBody");
export const PrepareBody = z
  .object({
    toml_content: toml,
    samples: SamplesSchema.optional(),
    config: z.record(z.string(), z.string()).optional(),
    limit: z.number().int().min(0).max(PAGE_LIMITS.prepareJobs.max).optional().openapi({ description: `jobs in this page (default ${PAGE_LIMITS.prepareJobs.default}, at most ${PAGE_LIMITS.prepareJobs.max})` }),
    cursor: cursor.optional(),
  })
  .openapi("PrepareBody");
export const DagBody = z
  .object({
    toml_content: toml,
    expanded: z.boolean().optional(),
    limit: z.number().int().min(1).max(PAGE_LIMITS.dagNodes.max).optional().openapi({ description: `nodes in one page (default ${PAGE_LIMITS.dagNodes.default}, at most ${PAGE_LIMITS.dagNodes.max})` }),
    cursor: cursor.optional(),
  })
  .openapi("DagBody");
export const DiffBody = z.object({ toml_a: toml, toml_b: toml }).openapi("DiffBody");
export const ExportBody = z.object({ toml_content: toml, format: z.enum(["docker", "singularity"]).optional() }).openapi("ExportBody");

export const ParseResult = z
  .object({
    workflow: z.object({ name: z.string(), version: z.string(), description: z.string().nullable(), author: z.string().nullable() }),
    rules: z.array(z.record(z.string(), z.unknown())),
    config: z.record(z.string(), z.unknown()),
    sample_groups: z.array(z.object({ name: z.string(), samples: z.array(z.string()) })),
    pairs: z.array(z.record(z.string(), z.unknown())),
    includes: z.array(z.record(z.string(), z.unknown())),
  })
  .openapi("ParseResult");

export const ValidateResult = z
  .object({
    valid: z.boolean(),
    errors: z.array(FindingSchema),
    warnings: z.array(FindingSchema),
    rules: z.number(),
    dependencies: z.number(),
    missing_inputs: z.array(z.string()),
  })
  .openapi("ValidateResult");

export const PrepareResult = z
  .object({
    jobs_total: z.number(),
    rules: z.array(z.object({ rule: z.string(), jobs: z.number() })),
    jobs: z.array(
      z.object({
        name: z.string(),
        rule: z.string(),
        inputs: z.array(z.string()),
        outputs: z.array(z.string()),
        command: z.string().nullable(),
        environment: z.string(),
        threads: z.number(),
        memory: z.string().nullable(),
        bindings: z.record(z.string(), z.string()),
      }),
    ),
    environment_setup: z.array(z.object({ kind: z.string(), spec: z.string(), command: z.string().nullable() })),
    next_cursor: z.string().nullable().openapi({ description: "the page after this one (send it as cursor); null when jobs_total is reached" }),
  })
  .openapi("PrepareResult");

export const FormatResult = z.object({ formatted: z.string(), changed: z.boolean() }).openapi("FormatResult");
export const StatsResult = z
  .object({
    rules: z.number().int(),
    jobs: z.number().int().openapi({ description: "jobs after expansion (samples, pairs, values, scatter, transform)" }),
    shell_rules: z.number().int(),
    script_rules: z.number().int(),
    dependencies: z.number().int().openapi({ description: "edges of the rule graph (before expansion)" }),
    levels: z.number().int(),
    max_depth: z.number().int(),
    environments: z.array(z.string()),
    total_threads: z.number().int(),
    wildcard_names: z.array(z.string()),
    samples: z.number().int(),
    pairs: z.number().int(),
  })
  .openapi("StatsResult");
export const DiffResult = z
  .object({ identical: z.boolean(), changes: z.array(z.record(z.string(), z.unknown())), unified_diff: z.string() })
  .openapi("DiffResult");
export const ExportResult = z.object({ format: z.string(), filename: z.string(), content: z.string() }).openapi("ExportResult");
