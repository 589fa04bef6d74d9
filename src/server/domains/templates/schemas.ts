/**
 * Request and response types of the templates endpoints (they generate this part of the OpenAPI document).
 */
import { z } from "@hono/zod-openapi";
import { LintResult } from "../../openapi-shapes.js";

export const TemplateSchema = z
  .object({
    id: z.string(),
    slug: z.string().nullable().openapi({ description: "a built-in template's short name (what `strand template` takes)" }),
    name: z.string(),
    title: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    features: z.array(z.string()),
    runnable: z.boolean().openapi({ description: "runs on a bare machine (bash and coreutils only)" }),
    builtin: z.boolean(),
    toml_content: z.string(),
    created_at: z.string().nullable(),
    owner: z.string().nullable().openapi({ description: "the id of the user who added it; null for built-in templates and those added before sign-in" }),
  })
  .openapi("Template");

export const TemplateList = z.array(TemplateSchema).openapi("TemplateList");

export const NewTemplateBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    toml_content: z.string().openapi({ description: "pipeline TOML text; it must parse and have [workflow].name" }),
    description: z.string().max(2000).optional().openapi({ description: "default: [workflow].description" }),
    tags: z.array(z.string().min(1).max(64)).max(32).optional(),
  })
  .openapi("NewTemplate");

export const TemplateWithValidation = TemplateSchema.extend({ validation: LintResult }).openapi("TemplateWithValidation");

export const TemplateIdParam = z.object({
  id: z.string().min(1).max(200).openapi({ param: { name: "id", in: "path" }, description: "template id, built-in slug, or exact name" }),
});
