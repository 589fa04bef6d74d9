/**
 * HTTP adapter of the plugins domain: `POST /api/plugins/validate`, the manifest's field checks and its
 * Ed25519 signature against the service's trusted keys and those the request adds. It changes nothing.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { bodyHook } from "../../body-hook.js";
import { ServiceError } from "../../errors.js";
import { failureResponse, jsonBody, jsonResponse } from "../../openapi-shapes.js";
import { PluginValidationSchema, ValidatePluginBody } from "./schemas.js";
import { configuredTrustedKeys, readPublicKey, TRUSTED_KEYS_VARIABLE, validatePlugin, type TrustedKey } from "./service.js";

const validateRoute = createRoute({
  method: "post",
  path: "/api/plugins/validate",
  operationId: "validatePlugin",
  tags: ["plugins"],
  summary: "Check a plugin manifest's fields and its Ed25519 signature",
  description:
    "Every problem names its field (JSON path), what is wrong and how to fix it; unknown fields are warnings. " +
    "The signature covers the RFC 8785 canonical JSON of the whole manifest except its signature field. " +
    "valid is false whenever a present signature does not verify or its key is not trusted; an unsigned manifest is valid with a warning unless allow_unsigned is false.",
  request: jsonBody(ValidatePluginBody),
  responses: {
    200: jsonResponse(PluginValidationSchema, "the verdict, with every problem found"),
    400: failureResponse("no manifest (MISSING_FIELD), or a trusted key that is not an Ed25519 public key (PLUGIN_ERROR)"),
  },
});

/** The keys a request adds, or a PLUGIN_ERROR naming the first that is not a key. */
function requestKeys(given: string[] | Record<string, string> | undefined): TrustedKey[] {
  if (!given) return [];
  const entries: [string | null, string, string][] = Array.isArray(given) ? given.map((key, index) => [null, key, `trusted_keys[${index}]`]) : Object.entries(given).map(([id, key]) => [id, key, `trusted_keys.${id}`]);
  return entries.map(([id, text, where]) => {
    const key = readPublicKey(text, where);
    if (!(key instanceof Uint8Array)) throw new ServiceError("PLUGIN_ERROR", key.message, { suggestion: "give each trusted key as the base64 public key `strand plugin keygen` prints" });
    return { id, key };
  });
}

/** The plugins router; `version` is the strand version manifests' strand_version must admit. */
export function pluginRoutes(options: { version: string; trustedKeys: string }): OpenAPIHono {
  const router = new OpenAPIHono();
  router.openapi(
    validateRoute,
    (c) => {
      const body = c.req.valid("json");
      const configured = configuredTrustedKeys(options.trustedKeys);
      const result = validatePlugin(body.manifest, { strandVersion: options.version, trustedKeys: [...configured.keys, ...requestKeys(body.trusted_keys)], allowUnsigned: body.allow_unsigned });
      for (const problem of configured.problems) {
        result.warnings.push({ field: TRUSTED_KEYS_VARIABLE, message: `${problem.message}; the service ignores it`, suggestion: "ask the service's administrator to correct the entry" });
      }
      return c.json(result, 200);
    },
    bodyHook,
  );
  return router;
}
