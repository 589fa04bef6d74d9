/**
 * One guarded server-side GET, for importing pipelines from other hosts.
 *
 * A URL sent by a client must not turn the service into a proxy into its own network (the previous product
 * fetched anything, cloud metadata at 169.254.169.254 included). So: https only; the host is resolved once
 * and refused if any of its addresses is not public (unless `allowPrivate`, for tests); the connection is
 * pinned to the vetted addresses, TLS verified against the host name, and redirects refused, not followed
 * (all three by the shared pinned request, src/server/outbound/pinned-request.ts, which AI provider calls
 * use too); one deadline covers DNS, connect and body; the body is capped while it streams and must be UTF-8.
 *
 * Error messages name the host and path only, never userinfo or the query string.
 */
import type { LookupAddress } from "node:dns";
import type { IncomingMessage } from "node:http";
import { OutboundRefusal, sendPinned, shownUrl, vetAddresses, type AddressLookup } from "../../outbound/pinned-request.js";

export type { AddressLookup };

/** Why a remote fetch was refused or failed. */
export type RemoteFetchReason = "scheme" | "address" | "dns" | "timeout" | "too_large" | "redirect" | "status" | "network";

/** A refused or failed remote fetch; `status` is set for reasons `status` and `redirect`. */
export class RemoteFetchError extends Error {
  constructor(
    readonly reason: RemoteFetchReason,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "RemoteFetchError";
  }
}

/** Limits and test hooks of a remote fetch. */
export interface RemoteFetchOptions {
  /** Allow loopback, private and other non-public addresses (tests only). */
  allowPrivate?: boolean;
  /** Deadline for the whole fetch, DNS to last byte (default 10 s). */
  timeoutMs?: number;
  /** Largest body accepted, in bytes (default 1 MiB). */
  maxBytes?: number;
  /** A CA to trust in addition to the usual roots (tests with a self-signed certificate). */
  ca?: string | Buffer;
  /** Host name resolution (default: the system resolver, all addresses). */
  lookup?: AddressLookup;
}

/** The body of a successful fetch. */
export interface RemoteText {
  text: string;
  contentType: string | null;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;

/** Fetches a text document over HTTPS from a public host, within the limits above. */
export async function fetchRemoteText(url: string, options: RemoteFetchOptions = {}): Promise<RemoteText> {
  const target = parseHttpsUrl(url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const addresses = await beforeDeadline(resolveVetted(target, options), timeoutMs, target);
  return getPinned(target, addresses, {
    remainingMs: Math.max(0, deadline - Date.now()),
    timeoutMs,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    ca: options.ca,
  });
}

const shown = shownUrl;

function parseHttpsUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RemoteFetchError("scheme", "not a valid URL");
  }
  if (url.protocol !== "https:") throw new RemoteFetchError("scheme", `only https URLs can be fetched, not ${url.protocol}`);
  return url;
}

/** Rejects with a timeout error if `work` has not settled within `timeoutMs`. */
async function beforeDeadline<T>(work: Promise<T>, timeoutMs: number, url: URL): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError(url, timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([work, expiry]);
  } finally {
    clearTimeout(timer);
  }
}

function timeoutError(url: URL, timeoutMs: number): RemoteFetchError {
  return new RemoteFetchError("timeout", `fetching ${shown(url)} took longer than ${timeoutMs} ms`);
}

/** The URL's host vetted by the shared guard, its refusals as this module's errors. */
async function resolveVetted(url: URL, options: RemoteFetchOptions): Promise<LookupAddress[]> {
  try {
    return await vetAddresses(url, { lookup: options.lookup, allowPrivate: options.allowPrivate });
  } catch (error) {
    if (!(error instanceof OutboundRefusal)) throw error;
    throw new RemoteFetchError(error.reason as RemoteFetchReason, error.reason === "address" ? `refusing to fetch from ${error.message}` : error.message);
  }
}

interface RequestLimits {
  remainingMs: number;
  timeoutMs: number;
  maxBytes: number;
  ca: string | Buffer | undefined;
}

/** The GET itself, over a fresh connection to the vetted addresses (redirects refused there), its body capped. */
async function getPinned(url: URL, addresses: LookupAddress[], limits: RequestLimits): Promise<RemoteText> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(timeoutError(url, limits.timeoutMs)), limits.remainingMs);
  try {
    const response = await sendPinned(url, addresses, {
      method: "GET",
      headers: { accept: "*/*", "accept-encoding": "identity", "user-agent": "strand-import" },
      ca: limits.ca,
      signal: deadline.signal,
    });
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      response.destroy();
      throw new RemoteFetchError("status", `${shown(url)} answered with status ${status}`, status);
    }
    const declaredLength = Number(response.headers["content-length"]);
    if (Number.isFinite(declaredLength) && declaredLength > limits.maxBytes) {
      response.destroy();
      throw tooLarge(url, limits.maxBytes);
    }
    return await readCapped(url, response, limits.maxBytes, deadline.signal);
  } catch (error) {
    if (error instanceof RemoteFetchError) throw error;
    if (deadline.signal.aborted) throw deadline.signal.reason as RemoteFetchError;
    if (error instanceof OutboundRefusal) throw new RemoteFetchError(error.reason as RemoteFetchReason, error.message, error.status);
    throw networkError(url, error as Error);
  } finally {
    clearTimeout(timer);
  }
}

/** The body as UTF-8 text, stopped as soon as it passes the cap or the deadline passes. */
function readCapped(url: URL, response: IncomingMessage, maxBytes: number, deadline: AbortSignal): Promise<RemoteText> {
  return new Promise<RemoteText>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: RemoteText | RemoteFetchError): void => {
      if (settled) return;
      settled = true;
      deadline.removeEventListener("abort", onDeadline);
      if (outcome instanceof RemoteFetchError) {
        response.destroy();
        reject(outcome);
      } else resolve(outcome);
    };
    const onDeadline = () => finish(deadline.reason as RemoteFetchError);
    deadline.addEventListener("abort", onDeadline, { once: true });
    const chunks: Buffer[] = [];
    let received = 0;
    response.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) return finish(tooLarge(url, maxBytes));
      chunks.push(chunk);
    });
    response.on("end", () => {
      try {
        const text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
        finish({ text, contentType: response.headers["content-type"] ?? null });
      } catch {
        finish(new RemoteFetchError("network", `the body of ${shown(url)} is not valid UTF-8`));
      }
    });
    response.on("error", (error) => finish(networkError(url, error)));
    response.on("close", () => {
      if (!response.complete) finish(new RemoteFetchError("network", `${shown(url)} closed the connection before the body was complete`));
    });
  });
}

function tooLarge(url: URL, maxBytes: number): RemoteFetchError {
  return new RemoteFetchError("too_large", `${shown(url)} is larger than ${maxBytes} bytes`);
}

function networkError(url: URL, error: Error): RemoteFetchError {
  const code = (error as NodeJS.ErrnoException).code;
  return new RemoteFetchError("network", `could not fetch ${shown(url)}: ${code !== undefined ? `${code} ` : ""}${error.message}`);
}

