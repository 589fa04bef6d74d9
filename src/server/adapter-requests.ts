/**
 * Requests the Node adapter cannot hand to the app as they are. `@hono/node-server` builds each request's URL
 * from its Host header and target: a value it cannot make a URL of (`[::1`, a port past 65535, a space, a
 * backslash in the path) it refused with a bare 400, and a Host it passes through unchecked but the URL
 * parser refuses (`xn--localhost`: bad punycode) broke every `new URL(c.req.url)` in the app, its error
 * handler included — a bare 500. Both now answer 400 BAD_REQUEST with the error body, like every other
 * failure; anything else that escapes the app is a 500 with the error body, never a bare status.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener, RequestError } from "@hono/node-server";
import type { ErrorBody } from "./errors.js";
import { applySecurityHeaders } from "./middleware/security-headers.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the adapter passes its bindings, Hono's fetch takes any environment
type Fetch = (request: Request, env: any) => Response | Promise<Response>;

/** An error body as a JSON response with the headers every answer carries. */
function errorBodyResponse(status: number, body: ErrorBody): Response {
  const headers = new Headers({ "Content-Type": "application/json" });
  applySecurityHeaders(headers, false);
  return new Response(JSON.stringify(body), { status, headers });
}

/** The answer to a request whose Host or target cannot be read as a URL. */
function malformedRequest(what: string): Response {
  return errorBodyResponse(400, {
    code: "BAD_REQUEST",
    message: `the request's ${what} cannot be read as a URL`,
    suggestion: "send a Host header with a valid host name or address (and a port from 1 to 65535), and a path starting with /",
  });
}

/** The app's fetch, refusing a request whose URL the app could not parse before any of it runs. */
export function parsableUrlsOnly(fetch: Fetch): Fetch {
  return (request, env) => (URL.canParse(request.url) ? fetch(request, env) : malformedRequest("Host header"));
}

/** The adapter's error handler: its own refusals are 400, anything else 500, each with the error body. */
export function adapterErrorResponse(error: unknown): Response {
  if (error instanceof RequestError) return malformedRequest(/host/i.test(error.message) ? "Host header" : "target");
  return errorBodyResponse(500, { code: "INTERNAL", message: "internal error" });
}

/**
 * Serves the app on the Node adapter with the answers above (the service and the tests start it the same
 * way). The adapter's own `serve` does not pass an error handler on, so its listener is used directly.
 */
export function serveApp(fetch: Fetch, where: { hostname: string; port: number }, listening?: (info: AddressInfo) => void): Server {
  const server = createServer(getRequestListener(parsableUrlsOnly(fetch), { hostname: where.hostname, errorHandler: adapterErrorResponse }));
  server.listen(where.port, where.hostname, () => listening?.(server.address() as AddressInfo));
  return server;
}
