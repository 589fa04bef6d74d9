/**
 * Every code the service answers an error with, and its HTTP status: the one home of both. The first block
 * is the specification's table ("Errors"), the second its domain codes (all 400), the third the codes our
 * decisions added where the specification is silent. `new ServiceError(code, …)` takes the status from here,
 * and the OpenAPI document lists these codes as the error body's enum.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Each service error code and the HTTP status it is answered with. */
export const SERVICE_ERROR_STATUS = {
  // The specification's table.
  BAD_REQUEST: 400,
  MISSING_FIELD: 400,
  DAG_EDIT_ERROR: 400,
  AUTH_REQUIRED: 401,
  AUTH_FAILED: 401,
  TOKEN_EXPIRED: 401,
  ACCESS_DENIED: 403,
  NOT_FOUND: 404,
  NO_UNDO: 404,
  NO_REDO: 404,
  RATE_LIMITED: 429,
  DB_ERROR: 500,
  AI_NOT_CONFIGURED: 503,
  // The specification's domain codes.
  PARSE_ERROR: 400,
  VALIDATE_ERROR: 400,
  PREPARE_ERROR: 400,
  DAG_ERROR: 400,
  LINT_ERROR: 400,
  STATS_ERROR: 400,
  DIFF_ERROR: 400,
  EXPORT_ERROR: 400,
  SEARCH_ERROR: 400,
  RUN_ERROR: 400,
  RETRY_ERROR: 400,
  DATA_ERROR: 400,
  REF_ERROR: 400,
  PLUGIN_ERROR: 400,
  AI_TRANSLATE_ERROR: 400,
  CHAT_ERROR: 400,
  INVALID_URL: 400,
  // Ours (api-decisions), where the specification is silent.
  AI_EXPLAIN_ERROR: 400,
  AI_INTERPRET_ERROR: 400,
  AI_OPTIMIZE_ERROR: 400,
  INVALID_NAME: 400,
  INVALID_PATH: 400,
  CROSS_ORIGIN: 403,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  QUOTA_EXCEEDED: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  MISDIRECTED_REQUEST: 421,
  WORK_LIMIT: 422,
  USER_LIMIT: 429,
  INTERNAL: 500,
  UPSTREAM_ERROR: 502,
  SERVICE_BUSY: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

/** A code the service answers an error with. */
export type ServiceErrorCode = keyof typeof SERVICE_ERROR_STATUS;

/** Every service error code, in the table's order. */
export const SERVICE_ERROR_CODES = Object.keys(SERVICE_ERROR_STATUS) as [ServiceErrorCode, ...ServiceErrorCode[]];

/** Whether `code` is a service error code (for codes that arrive as text, e.g. from the engine pool). */
export function isServiceErrorCode(code: string): code is ServiceErrorCode {
  return Object.hasOwn(SERVICE_ERROR_STATUS, code);
}
