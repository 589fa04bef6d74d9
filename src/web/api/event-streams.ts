/**
 * The service's streamed answers (server-sent events over a POST: drafting a pipeline, a copilot reply),
 * opened with a plain fetch because the typed client cannot stream; a refusal becomes an ApiError.
 */
import { apiErrorOf } from "./errors.js";
import { baseUrl } from "./service-address.js";

/** POSTs `body` as JSON to `path` (under the service's base address) and answers the event stream; `signal` stops it. */
export async function openEventStream(path: string, body: unknown, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  const response = await fetch(new URL(path, baseUrl), {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok || !response.body) throw await apiErrorOf(response);
  return response.body;
}
