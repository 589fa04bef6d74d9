/**
 * The service's OpenAPI 3.1 document, completed with what every operation shares so that each route
 * declares only its own answers: the security schemes sign-in will use (a bearer token for scripts, the
 * `session` cookie for the browser app) and the error answers every operation of a kind can give — 400 for
 * a request with parameters or a body, 401 and 403 for operations that need credentials in team and hpc
 * modes, 413 and 415 for a body, 421 (a personal service asked for by a foreign host name), 429 (the rate
 * limit) and 500 — all with the error body.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { ROUTE_ACCESS } from "./access-policy.js";

/** The document `@hono/zod-openapi` generates. */
type OpenAPIObject = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;


const ERROR_DESCRIPTIONS: Record<string, string> = {
  "400": "the request does not match the expected shape (BAD_REQUEST, naming the fields) or misses a field (MISSING_FIELD)",
  "401": "team and hpc modes: no credentials (AUTH_REQUIRED), or a token that is unknown, expired or revoked (TOKEN_EXPIRED)",
  "403": "team and hpc modes: the caller's role does not allow it (ACCESS_DENIED); any mode: a state-changing request a browser sent for a page of another origin (CROSS_ORIGIN)",
  "413": "the body is over the size cap (PAYLOAD_TOO_LARGE)",
  "415": "the body is not JSON (UNSUPPORTED_MEDIA_TYPE)",
  "421": "personal mode: the request names the service by a host name it does not answer to (MISDIRECTED_REQUEST)",
  "429": "too many requests from this client (RATE_LIMITED, with Retry-After)",
  "500": "an unexpected error (INTERNAL, with the request id in detail)",
};

type Operation = { operationId?: string; requestBody?: unknown; parameters?: unknown[]; responses?: Record<string, unknown>; security?: unknown[] };

/** The error answer `status` as a response object referring to the shared error schema. */
function errorResponse(status: string): unknown {
  return { description: ERROR_DESCRIPTIONS[status], content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
}

/** Adds the shared security schemes and error answers to a generated document (in place) and returns it. */
export function completeDocument(document: OpenAPIObject): OpenAPIObject {
  document.components ??= {};
  document.components.securitySchemes = {
    bearerAuth: { type: "http", scheme: "bearer", description: "a session token from POST /api/auth/login, or a personal access token (team and hpc modes)" },
    sessionCookie: { type: "apiKey", in: "cookie", name: "session", description: "the browser app's session cookie (team and hpc modes)" },
  };
  // Personal mode needs no credentials; team and hpc modes need one of these on every non-public operation.
  document.security = [{ bearerAuth: [] }, { sessionCookie: [] }];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, value] of Object.entries(item as Record<string, Operation>)) {
      if (!path.startsWith("/api/")) continue;
      const operation = value;
      // The access table decides: public operations need no credentials, write and admin ones a role.
      const access = ROUTE_ACCESS[operation.operationId ?? ""] ?? "admin";
      const isPublic = access === "public";
      if (isPublic) operation.security = [];
      const statuses = ["421", "429", "500"];
      if (operation.requestBody || (operation.parameters?.length ?? 0) > 0) statuses.push("400");
      if (operation.requestBody) statuses.push("413", "415");
      if (!isPublic) statuses.push("401");
      // POST, PUT, PATCH and DELETE may also be refused as cross-origin (middleware/origin-check.ts).
      if (access === "write" || access === "admin" || ["post", "put", "patch", "delete"].includes(method)) statuses.push("403");
      operation.responses ??= {};
      for (const status of statuses.sort()) operation.responses[status] ??= errorResponse(status);
    }
  }
  return document;
}
