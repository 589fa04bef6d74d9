/**
 * A typed client for the strand service: openapi-fetch over the types generated from the service's OpenAPI
 * document (`api-types.ts`), so a path, parameter, body or answer that does not match the API fails to
 * compile. Usable from Node.js (tests, scripts) and the browser app alike: it needs only `fetch`.
 *
 * ```ts
 * const client = createServiceClient({ baseUrl: "http://127.0.0.1:8080" });
 * const { data, error } = await client.POST("/api/pipelines/validate", { body: { toml_content } });
 * ```
 */
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./api-types.js";

export type { components, operations, paths } from "./api-types.js";

/** The client: one method per HTTP verb (`GET`, `POST`, …), each taking a documented path. */
export type ServiceClient = Client<paths, "application/json">;

/** The error body every failure answers with. */
export type ServiceErrorBody = components["schemas"]["Error"];

export interface ServiceClientOptions {
  /** The service's address, with its base path if it has one (`https://strand.example.org/strand`). */
  baseUrl: string;
  /** A session or personal access token, sent as `Authorization: Bearer …` (team and hpc modes). */
  token?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

/** A client for the service at `options.baseUrl`. */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  return createClient<paths, "application/json">({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** The answer's data, or an Error naming the failure's status, code and message (for scripts that stop on any failure). */
export function expectData<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data !== undefined && answer.error === undefined) return answer.data;
  const body = answer.error as Partial<ServiceErrorBody> | undefined;
  const reason = body?.code ? `${body.code}: ${body.message ?? ""}` : "no body";
  throw new Error(`${answer.response.status} from ${answer.response.url} (${reason})`);
}
