/**
 * Errors of the HTTP service: one class with a code from the specification's table and its status, and
 * the one place that turns any failure into the error body `{code, message, detail?, suggestion?}`.
 */
import type { Context } from "hono";
import type { Logger } from "./logger.js";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { EngineError, type EngineErrorCode } from "../engine/findings.js";
import { SERVICE_ERROR_STATUS, type ServiceErrorCode } from "./error-codes.js";
import { StoreError } from "./store/store-error.js";

/** The error body every failure uses. */
export interface ErrorBody {
  /** A service code, or the code of the engine problem that stopped the request (PARSE_ERROR, E005, …). */
  code: ServiceErrorCode | EngineErrorCode;
  message: string;
  detail?: string;
  suggestion?: string;
  [extra: string]: unknown;
}

/** A failure with a specification code and HTTP status. */
export class ServiceError extends Error {
  /** The HTTP status, always the one the code's row of SERVICE_ERROR_STATUS names. */
  readonly status: ContentfulStatusCode;

  constructor(
    readonly code: ServiceErrorCode,
    message: string,
    readonly extra: { detail?: string; suggestion?: string; headers?: Record<string, string>; fields?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.status = SERVICE_ERROR_STATUS[code];
  }

  /** The error body, with optional fields only when given. */
  body(): ErrorBody {
    return {
      code: this.code,
      message: this.message,
      ...(this.extra.detail !== undefined ? { detail: this.extra.detail } : {}),
      ...(this.extra.suggestion !== undefined ? { suggestion: this.extra.suggestion } : {}),
      // Extra fields some errors carry (a refused run's `findings`).
      ...this.extra.fields,
    };
  }
}

/**
 * Turns anything thrown by a handler into an error response; unexpected errors are logged, never shown with
 * their stack. `shown` rewrites the body for the caller (server paths hidden from non-administrators).
 */
export function errorResponse(c: Context, error: unknown, logger?: Logger, shown: (body: ErrorBody) => ErrorBody = (body) => body): Response {
  if (error instanceof StoreError) error = storeFailure(error);
  if (error instanceof ServiceError) return c.json(shown(error.body()), error.status, error.extra.headers);
  if (error instanceof EngineError) {
    const { finding } = error;
    const where = finding.line != null ? `line ${finding.line}, column ${finding.column ?? 1}` : undefined;
    const body: ErrorBody = { code: error.code, message: finding.message };
    if (where) body.detail = where;
    if (finding.suggestion) body.suggestion = finding.suggestion;
    return c.json(shown(body), 400);
  }
  const requestId = (c.get("requestId") as string | undefined) ?? "unknown";
  logger?.error({ err: error instanceof Error ? error : new Error(String(error)) }, "unexpected error while answering the request");
  return c.json({ code: "INTERNAL", message: "internal error", detail: `request id ${requestId}` } satisfies ErrorBody, 500);
}

/** The store's expected failures as service errors: a missing row, a lost race, a cursor we did not issue. */
function storeFailure(error: StoreError): ServiceError {
  if (error.code === "NOT_FOUND") return new ServiceError("NOT_FOUND", error.message);
  if (error.code === "CONFLICT") return new ServiceError("CONFLICT", error.message, { suggestion: "read the resource again and repeat the change" });
  if (error.code === "QUOTA_EXCEEDED") {
    return new ServiceError("QUOTA_EXCEEDED", error.message, { suggestion: "remove older revisions (DELETE /api/pipelines/{id}/revisions?keep=10) or pipelines you no longer need" });
  }
  return new ServiceError("BAD_REQUEST", "the cursor is not one this service issued", { detail: error.message, suggestion: "start again without a cursor" });
}
