/**
 * Every code the service answers an error with, and its HTTP status: the one home of both. The first block
 * is the specification's table, the second its domain codes (all 400), the third the codes we added where
 * it is silent. `new ServiceError(code, …)` takes the status from here, the OpenAPI document lists these
 * codes as the error body's enum, and docs/reference/error-codes.md is written from this file.
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
  // Ours, where the specification is silent.
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

/**
 * What each code means, for the error-code reference (`docs/reference/error-codes.md`, written from this
 * table by `npm run docs:generate`): a code added above without a meaning here does not compile.
 */
export const SERVICE_ERROR_MEANING: { readonly [C in keyof typeof SERVICE_ERROR_STATUS]: string } = {
  BAD_REQUEST: "the request is malformed: a field has the wrong type or value, or two fields exclude each other; the message names the field",
  MISSING_FIELD: "a required field of the body is missing (for example `toml_content`); the message names it",
  DAG_EDIT_ERROR: "a graph edit was refused: an unknown operation, a missing field, a rule that does not exist, or a rule connected to itself (an edit that makes a longer cycle is applied and answered with its validation errors)",
  AUTH_REQUIRED: "the route needs credentials (a session cookie or a bearer token) and none were sent",
  AUTH_FAILED: "the user name and password, or the token, do not match an account",
  TOKEN_EXPIRED: "the session or token has expired or was revoked: sign in again",
  ACCESS_DENIED: "the account's role may not do this (others' private pipelines and runs answer `NOT_FOUND` instead)",
  NOT_FOUND: "nothing of that id or path exists, or the account may not see it",
  NO_UNDO: "the graph edit history has nothing to undo",
  NO_REDO: "the graph edit history has nothing to redo",
  RATE_LIMITED: "too many requests from one client address (or too many event streams for one user); `Retry-After` says when to try again",
  DB_ERROR: "the database failed (unreachable, full, or a statement failed); the request changed nothing",
  AI_NOT_CONFIGURED: "no AI provider is configured, or none of the configured ones answered; the message says how to set one up",
  PARSE_ERROR: "the pipeline's TOML cannot be read; `findings` holds the line and column",
  VALIDATE_ERROR: "the pipeline has validation errors; `findings` lists them (a run is refused before anything starts)",
  PREPARE_ERROR: "the pipeline cannot be expanded into jobs (a missing sample source, a bad wildcard, …)",
  DAG_ERROR: "the pipeline's graph cannot be built (a cycle, an unknown dependency)",
  LINT_ERROR: "the pipeline cannot be linted (it does not load)",
  STATS_ERROR: "the pipeline's figures cannot be computed (it does not load)",
  DIFF_ERROR: "one of the two pipelines to compare does not load",
  EXPORT_ERROR: "the pipeline cannot be exported in the asked format",
  SEARCH_ERROR: "the search query is empty or cannot be used",
  RUN_ERROR: "the run cannot do this in its state (cancel a finished run, pause one that is not running); the message names the state",
  RETRY_ERROR: "the run cannot be retried: it has not ended in failure or cancellation, it was a dry run, or another run works in its workspace",
  DATA_ERROR: "the data request cannot be served: an unknown data root, a folder that cannot be read, an upload that failed",
  REF_ERROR: "an unknown reference genome or reference component",
  PLUGIN_ERROR: "the plugin manifest is invalid or its signature does not check out",
  AI_TRANSLATE_ERROR: "the AI provider could not draft a valid pipeline from the description (after the correction rounds)",
  CHAT_ERROR: "the copilot conversation cannot go on: an unknown conversation, or the provider failed mid-answer",
  INVALID_URL: "the URL is not an http(s) URL, or it points at an address the service may not reach (loopback, private or link-local)",
  AI_EXPLAIN_ERROR: "the AI provider could not explain the run's failure (or the run has no failure to explain)",
  AI_INTERPRET_ERROR: "the AI provider could not interpret the run's results",
  AI_OPTIMIZE_ERROR: "the AI provider could not propose an optimized pipeline",
  INVALID_NAME: "a file or folder name is not allowed: a `/`, a leading dot, control or invisible characters",
  INVALID_PATH: "a path is absolute, climbs out with `..`, or names something that is not a folder",
  CROSS_ORIGIN: "a request that changes something came from a page of another site (checked from `Origin` and `Sec-Fetch-Site`)",
  METHOD_NOT_ALLOWED: "the path exists but not with this HTTP method; `Allow` lists the methods it takes",
  CONFLICT: "the change collides with the current state: a name already taken, or a run already working in the pipeline's workspace (`running_run` names it)",
  EXPIRED: "the share link expired or was revoked",
  PAYLOAD_TOO_LARGE: "the request body is larger than the service accepts (`SERVICE_BODY_LIMIT`, or `SERVICE_UPLOAD_LIMIT_MB` for uploads)",
  QUOTA_EXCEEDED: "saving would take the account over its storage limit",
  UNSUPPORTED_MEDIA_TYPE: "the body is not JSON where JSON is expected (or not the upload type a route takes)",
  RANGE_NOT_SATISFIABLE: "a `Range` header asks for bytes outside the file",
  MISDIRECTED_REQUEST: "a personal service was asked for a host name other than localhost or its own addresses (DNS rebinding protection)",
  WORK_LIMIT: "engine work on the request took longer, or needed more memory, than the engine work limits allow, and was stopped",
  USER_LIMIT: "the account has as many active runs, or as much workspace, as one user may have",
  INTERNAL: "an unexpected error in the service; the log has the request id",
  UPSTREAM_ERROR: "another server the service had to ask (a share link's host, an AI provider) did not answer or answered with an error",
  SERVICE_BUSY: "the service has too much engine work waiting; try again shortly (`Retry-After`)",
};

/** A code the service answers an error with. */
export type ServiceErrorCode = keyof typeof SERVICE_ERROR_STATUS;

/** Every service error code, in the table's order. */
export const SERVICE_ERROR_CODES = Object.keys(SERVICE_ERROR_STATUS) as [ServiceErrorCode, ...ServiceErrorCode[]];

/** Whether `code` is a service error code (for codes that arrive as text, e.g. from the engine pool). */
export function isServiceErrorCode(code: string): code is ServiceErrorCode {
  return Object.hasOwn(SERVICE_ERROR_STATUS, code);
}
