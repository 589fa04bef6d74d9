/**
 * A `fetch` for clients that take one (the AI SDK's providers), sending every request through the pinned
 * request (pinned-request.ts): each call resolves the host once, vets every address under the policy and
 * connects to a vetted address only; a redirect is refused with OutboundRefusal, never followed. The answer
 * streams as it arrives (server-sent events, newline-delimited JSON). A connection failure rejects as the
 * platform's fetch does (`TypeError: fetch failed` with the socket error as its cause), so clients classify
 * it as before; an abort rejects with the signal's reason.
 */
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { OutboundRefusal, sendPinned, shownUrl, vetAddresses, type OutboundPolicy } from "./pinned-request.js";

/** The fetch of one policy: http and https only, pinned, no redirects. */
export function pinnedFetch(policy: OutboundPolicy): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`only http and https URLs can be called, not ${url.protocol}`);
    if (url.username || url.password) throw new TypeError(`${shownUrl(url)}: URLs with credentials are not called`);
    const addresses = await vetAddresses(url, policy);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    // The body is read as it comes, never decoded by this client: ask for it as it is.
    headers["accept-encoding"] = "identity";
    const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
    let response: IncomingMessage;
    try {
      response = await sendPinned(url, addresses, { method: request.method, headers, body, signal: init?.signal ?? undefined });
    } catch (error) {
      if (error instanceof OutboundRefusal || init?.signal?.aborted) throw error;
      throw new TypeError("fetch failed", { cause: error });
    }
    return webResponse(response);
  };
}

/** The node answer as a web Response whose body streams. */
function webResponse(response: IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const status = response.statusCode ?? 502;
  const empty = status === 204 || status === 205 || status === 304;
  if (empty) response.resume();
  return new Response(empty ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), { status, statusText: response.statusMessage, headers });
}
