/**
 * One request from the service to a host that a user, a client or a pipeline chose (a pipeline import, an
 * AI provider): the host is resolved once and every address vetted by the shared address guard (public only,
 * unless the caller allows private ones); the connection is pinned to the vetted addresses through a custom
 * `lookup`, so a second DNS answer cannot rebind it, while the Host header, TLS SNI and the certificate check
 * keep the name; and a redirect is refused, never followed (it could point anywhere). What is done with the
 * answer (a capped text, a streamed reply) is the caller's.
 *
 * Messages name the scheme, host and path only, never userinfo or the query string.
 */
import type { LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { rootCertificates } from "node:tls";
import { AddressRefusal, pinnedLookup, vetHost, type AddressLookup } from "../../engine/public-address.js";

export type { AddressLookup };

/** Why an outgoing request was refused before or instead of an answer. */
export type OutboundReason = "address" | "dns" | "redirect";

/** A request refused: its host does not resolve, an address of it is not allowed, or it answered with a redirect. */
export class OutboundRefusal extends Error {
  constructor(
    readonly reason: OutboundReason,
    message: string,
    /** For `redirect`: the status the host answered with. */
    readonly status?: number,
    /** For `address`: the kind of address ("loopback", "private", …). */
    readonly category?: string,
  ) {
    super(message);
    this.name = "OutboundRefusal";
  }
}

/** Which addresses a request may reach, and how names are resolved. */
export interface OutboundPolicy {
  /** Allow loopback, private and other non-public addresses (the operator's own choices, or tests). */
  allowPrivate?: boolean;
  /** Host name resolution (default: the system resolver, all addresses). */
  lookup?: AddressLookup;
}

/** The request itself. */
export interface PinnedRequest {
  method: string;
  /** Headers to send (Host is set from the URL). */
  headers: Record<string, string>;
  body?: Uint8Array;
  /** A CA to trust in addition to the usual roots (tests with a self-signed certificate). */
  ca?: string | Buffer;
  /** Aborting destroys the connection; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** The URL as messages may show it: scheme, host and path, no credentials or query. */
export function shownUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** The addresses of the URL's host, each one allowed by the policy; OutboundRefusal (`dns`, `address`) otherwise. */
export async function vetAddresses(url: URL, policy: OutboundPolicy): Promise<LookupAddress[]> {
  try {
    return await vetHost(url.hostname, { lookup: policy.lookup, allowPrivate: policy.allowPrivate });
  } catch (error) {
    if (!(error instanceof AddressRefusal)) throw error;
    throw new OutboundRefusal(error.reason, error.message, undefined, error.category);
  }
}

/**
 * Sends the request over a fresh connection to the vetted addresses and resolves with the answer's head once
 * it arrives (the body is the caller's to read). A 3xx answer rejects with OutboundRefusal `redirect` and
 * the connection is closed; a connection or TLS failure rejects with the socket's error.
 */
export function sendPinned(url: URL, addresses: LookupAddress[], request: PinnedRequest): Promise<IncomingMessage> {
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const secure = url.protocol === "https:";
  const options: RequestOptions & { servername?: string; ca?: (string | Buffer)[] } = {
    method: request.method,
    hostname,
    port: url.port === "" ? (secure ? 443 : 80) : Number(url.port),
    path: `${url.pathname}${url.search}`,
    headers: { ...request.headers, host: url.host },
    lookup: pinnedLookup(addresses),
    agent: false,
    // SNI and certificate checks use the name; an IP literal is verified against the certificate's IP entries.
    ...(secure && isIP(hostname) === 0 ? { servername: hostname } : {}),
    ...(secure && request.ca !== undefined ? { ca: [...rootCertificates, request.ca] } : {}),
  };
  return new Promise<IncomingMessage>((resolve, reject) => {
    const signal = request.signal;
    if (signal?.aborted) return reject(signal.reason);
    const outgoing = (secure ? httpsRequest : httpRequest)(options, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        response.destroy();
        outgoing.destroy();
        return settle(new OutboundRefusal("redirect", `${shownUrl(url)} answered with a redirect (${status}); redirects are not followed`, status));
      }
      settle(undefined, response);
    });
    let settled = false;
    const onAbort = () => {
      outgoing.destroy(signal?.reason instanceof Error ? signal.reason : undefined);
      settle(signal?.reason ?? new Error("aborted"));
    };
    function settle(error: unknown, response?: IncomingMessage): void {
      if (settled) return;
      settled = true;
      if (error === undefined) {
        // Aborting later (while the body streams) still closes the connection.
        if (signal) response!.once("close", () => signal.removeEventListener("abort", onAbort));
        resolve(response!);
      } else {
        signal?.removeEventListener("abort", onAbort);
        reject(error);
      }
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    outgoing.on("error", (error) => settle(error));
    outgoing.end(request.body);
  });
}
