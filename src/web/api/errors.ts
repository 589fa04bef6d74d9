/**
 * A failed request as the app holds it: the HTTP status and the service's error body (code, message,
 * suggestion), whichever way the request went (the typed client or a streamed answer).
 */
import type { ServiceErrorBody } from "../../client/service-client.js";

/** A failed request: the HTTP status and the service's error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Partial<ServiceErrorBody>,
  ) {
    super(body.message ?? `the service answered ${status}`);
  }

  /** The seconds a 429 answer asks to wait (its detail says `retry in <N>s`; a throttled sign-in's message says `in <N> s`). */
  get retryAfterSeconds(): number | undefined {
    if (this.status !== 429) return undefined;
    const found = /(\d+)\s*s\b/.exec(`${this.body.detail ?? ""} ${this.message}`);
    return found ? Number(found[1]) : undefined;
  }
}

/** Whether an error means the caller's session is missing or over (not a wrong password: that is AUTH_FAILED). */
export function isSessionEnded(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.body.code !== "AUTH_FAILED";
}

/** A refused answer that was not read yet as an ApiError: its JSON error body, or its status when it has none. */
export async function apiErrorOf(response: Response): Promise<ApiError> {
  let body: ApiError["body"];
  try {
    body = (await response.json()) as ApiError["body"];
  } catch {
    body = { message: `the service answered ${response.status}` };
  }
  return new ApiError(response.status, body);
}
