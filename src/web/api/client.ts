/**
 * The app's access to the service: one typed client (generated from the OpenAPI document) at the address
 * the service's base path names, so a service mounted under SERVICE_BASE_PATH works unchanged, and the
 * session cookie travels with every request. Failures become `ApiError` with the service's code and message.
 */
import { createServiceClient, type ServiceErrorBody } from "../../client/service-client.js";

/** The router's base path (`/` or `/prefix/`), as the service injected it (`/` under `npm run dev`). */
export const basePath = document.querySelector<HTMLMetaElement>('meta[name="strand-base-path"]')?.content ?? "/";

/** The service's base address: this origin and the base path, whatever page the app was opened on. */
export const baseUrl = new URL(basePath, window.location.origin).href;

export const api = createServiceClient({ baseUrl });

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

/** The data of an answer, or an ApiError (for TanStack Query's queryFn). */
export function dataOf<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data !== undefined && answer.error === undefined) return answer.data;
  throw new ApiError(answer.response.status, (answer.error ?? {}) as Partial<ServiceErrorBody>);
}
