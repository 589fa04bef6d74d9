/**
 * HTTP adapter of the license domain: `GET /api/license` and `POST /api/license/upload {license_data}`.
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { ServiceError } from "../../errors.js";
import { installLicense, resolveLicense, type LicenseCache, type LicensePlaces, type LicenseStatus } from "../../../license/license.js";
import { noteAudit } from "../../middleware/audit.js";
import { failureResponse } from "../../openapi-shapes.js";

const LicenseStatusSchema = z
  .object({
    type: z.enum(["academic", "commercial"]),
    valid: z.boolean(),
    licensee: z.string().nullable(),
    expires_at: z.string().nullable(),
    source: z.enum(["env", "config", "legacy", "embedded"]).openapi({ description: "which place decided: SERVICE_LICENSE, the configuration directory, the legacy ~/.strand path, or the embedded academic license" }),
    contact: z.string(),
    problem: z.string().optional(),
  })
  .openapi("LicenseStatus");

const getLicense = createRoute({
  method: "get",
  path: "/api/license",
  operationId: "getLicense",
  tags: ["license"],
  summary: "License status: type, validity, licensee, expiry, contact (informational only)",
  responses: { 200: { description: "the status", content: { "application/json": { schema: LicenseStatusSchema } } } },
});

const uploadLicense = createRoute({
  method: "post",
  path: "/api/license/upload",
  operationId: "uploadLicense",
  tags: ["license"],
  summary: "Install a commercial license after checking its Ed25519 signature",
  request: { body: { required: true, content: { "application/json": { schema: z.object({ license_data: z.string().max(65_536) }).openapi("LicenseUpload") } } } },
  responses: {
    200: { description: "the installed license's status", content: { "application/json": { schema: LicenseStatusSchema } } },
    400: failureResponse("missing field, or a license that does not check out"),
  },
});

/** A status as the API shows it: where it came from by kind, never the server's file path. */
function shown(status: LicenseStatus) {
  const { path: _path, source, ...rest } = status;
  return { ...rest, source: source === "file" ? ("env" as const) : source };
}

/** The license router. */
export function licenseRoutes(places: LicensePlaces, cache?: LicenseCache): OpenAPIHono {
  const router = new OpenAPIHono();
  router.openapi(getLicense, async (c) => c.json(shown(await resolveLicense(places)), 200));
  router.openapi(
    uploadLicense,
    async (c) => {
      const { license_data } = (await c.req.json()) as { license_data: string };
      const status = await installLicense(license_data, places);
      cache?.invalidate();
      noteAudit(c, "license.upload", "license");
      if (status.type !== "commercial" || !status.valid) {
        throw new ServiceError("BAD_REQUEST", "the license was not accepted", { detail: status.problem ?? "invalid license", suggestion: `contact ${status.contact} for a signed license file` });
      }
      return c.json(shown(status), 200);
    },
    ((result: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) => {
      if (result.success) return;
      const missing = result.error?.issues.some((issue) => issue.path[0] === "license_data" && /undefined/.test(issue.message));
      if (missing) throw new ServiceError("MISSING_FIELD", "missing required field: license_data");
      throw new ServiceError("BAD_REQUEST", "license_data must be a string of at most 64 KiB");
    }) as never,
  );
  return router;
}
