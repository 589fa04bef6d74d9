/**
 * Request and answer shapes of the plugins domain.
 */
import { z } from "@hono/zod-openapi";

const Base64Key = z.string().max(200);

/** What POST /api/plugins/validate takes. */
export const ValidatePluginBody = z
  .object({
    manifest: z.record(z.string(), z.unknown()).openapi({
      description:
        "the plugin manifest (name, version, plugin_type, description, author, license, entry, command_template, environment, strand_version, permissions, homepage, repository, signature)",
      example: { name: "fastp-trim", version: "1.0.0", plugin_type: "rule", description: "Adapter trimming with fastp", author: "Ada Lovelace", license: "MIT", entry: "rules/fastp.toml", strand_version: "^0.1.0" },
    }),
    trusted_keys: z
      .union([z.array(Base64Key).max(100), z.record(z.string().max(100), Base64Key)])
      .optional()
      .openapi({ description: "Ed25519 public keys (standard base64) to trust besides the service's SERVICE_PLUGIN_TRUSTED_KEYS: a list, or an object {key_id: key}" }),
    allow_unsigned: z.boolean().optional().openapi({ description: "whether an unsigned manifest may be valid (default true: it gets a warning); false makes a missing signature an error" }),
  })
  .openapi("ValidatePluginRequest");

const Problem = z
  .object({
    field: z.string().openapi({ description: "the field's JSON path, e.g. permissions[1] or signature.value" }),
    message: z.string(),
    suggestion: z.string(),
  })
  .openapi("PluginProblem");

/** What POST /api/plugins/validate answers. */
export const PluginValidationSchema = z
  .object({
    valid: z.boolean().openapi({ description: "no errors: the fields check out and a present signature verifies with a trusted key" }),
    name: z.string().nullable(),
    version: z.string().nullable(),
    plugin_type: z.string().nullable(),
    errors: z.array(Problem),
    warnings: z.array(Problem),
    signature: z
      .object({
        present: z.boolean(),
        verified: z.boolean().openapi({ description: "well formed and matching the manifest under its public key" }),
        trusted: z.boolean().openapi({ description: "verified, and the key is a trusted one" }),
        key_id: z.string().nullable(),
        public_key: z.string().nullable(),
      })
      .openapi("PluginSignatureVerdict"),
  })
  .openapi("PluginValidation");
