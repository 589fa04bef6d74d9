/**
 * Sending a notification to every endpoint subscribed to an event. Delivery is best-effort: failures
 * are retried with exponential backoff, reported through `warn`, and never thrown, so a dead endpoint
 * cannot change how a run ends. Every address is resolved once, vetted and pinned (the same guard as
 * pipeline imports). Whoever starts the run decides where its webhooks may go (`WebhookTargets`): a
 * person's own `strand run` delivers where the pipeline says; a service tells its runs public addresses
 * only, so a user's pipeline cannot make a run probe the service's loopback or private network (unless
 * its operator allows that). The decision arrives as an option, never from the environment.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { setTimeout as sleep } from "node:timers/promises";
import { AddressRefusal, pinnedLookup, vetHost } from "../public-address.js";
import { chatMessage } from "./webhook-chat.js";
import { DISPATCHED_EVENTS, type WebhookEndpoint, type WebhookEvent } from "./webhook-config.js";
import { buildWebhookPayload, type WebhookPayloadInput } from "./webhook-payload.js";
import { SIGNATURE_HEADER, signatureHeaderValue } from "./webhook-signature.js";

/** How a dispatch reports and paces itself. */
export interface DispatchOptions {
  /** Receives one line per failed attempt and per endpoint given up on; lines never contain the URL. */
  warn: (message: string) => void;
  /** The delay before the first retry, doubled for each later one; 1000 (1 s, 2 s, 4 s, …) unless a test shortens it. */
  retryBaseMs?: number;
  /** Allow loopback, private and link-local targets (default: public addresses only). */
  allowPrivate?: boolean;
}

/** Where a run's webhooks may go: `any` address (a person's own run), or `public` addresses only (what a service tells its runs). */
export type WebhookTargets = "any" | "public";

/** The values of `strand run --webhook-targets`. */
export const WEBHOOK_TARGETS: readonly WebhookTargets[] = ["any", "public"];

/** The outcome of delivering one event to one endpoint. */
export interface DeliveryResult {
  /** The endpoint's label ("webhook #1"). */
  endpoint: string;
  ok: boolean;
  /** Requests made, counting the first. */
  attempts: number;
  /** The last HTTP status received, when any answer came. */
  status?: number;
  /** Why the last attempt failed. */
  error?: string;
}

interface AttemptOutcome {
  ok: boolean;
  status?: number;
  error?: string;
  /** A refusal that a retry cannot change (the address is not public). */
  final?: boolean;
}

/** Sends `event` to each endpoint subscribed to it, retrying failures; resolves with one result per endpoint sent to and never rejects. */
export async function dispatchWebhooks(
  endpoints: readonly WebhookEndpoint[],
  event: WebhookEvent,
  input: WebhookPayloadInput,
  options: DispatchOptions,
): Promise<DeliveryResult[]> {
  if (!DISPATCHED_EVENTS.has(event)) return [];
  const warn = quietly(options.warn);
  const retryBaseMs = options.retryBaseMs ?? 1000;
  const allowPrivate = options.allowPrivate ?? false;
  const subscribed = endpoints.filter((endpoint) => endpoint.events.includes(event));
  if (subscribed.length === 0) return [];
  // One timestamp for every endpoint; each endpoint's body is built once, so its retries repeat the same bytes and signature.
  const at = input.at ?? new Date();
  return Promise.all(
    subscribed.map(async (endpoint): Promise<DeliveryResult> => {
      let body: Buffer | null;
      let headers: Headers;
      try {
        const payload = buildWebhookPayload(event, { ...input, at }, endpoint.senderVersion);
        const content = endpoint.format === "chat" ? chatMessage(payload) : payload;
        body = endpoint.method === "get" ? null : Buffer.from(JSON.stringify(content), "utf8");
        headers = buildHeaders(endpoint, body);
      } catch {
        // Only a defect or a malformed input (say an invalid date) gets here; the run must still finish normally.
        const error = "internal error while preparing the request";
        warn(`${endpoint.label}: ${event} not sent: ${error}`);
        return { endpoint: endpoint.label, ok: false, attempts: 0, error };
      }
      return deliver(endpoint, event, headers, body, { retryBaseMs, allowPrivate }, warn);
    }),
  );
}

function buildHeaders(endpoint: WebhookEndpoint, body: Buffer | null): Headers {
  const headers = new Headers({ "User-Agent": `strand/${endpoint.senderVersion}` });
  if (body !== null) headers.set("Content-Type", "application/json");
  for (const [name, value] of Object.entries(endpoint.headers)) headers.set(name, value);
  if (endpoint.secret !== null) headers.set(SIGNATURE_HEADER, signatureHeaderValue(endpoint.signature_scheme, endpoint.secret, body ?? new Uint8Array()));
  return headers;
}

async function deliver(
  endpoint: WebhookEndpoint,
  event: WebhookEvent,
  headers: Headers,
  body: Buffer | null,
  pacing: { retryBaseMs: number; allowPrivate: boolean },
  warn: (message: string) => void,
): Promise<DeliveryResult> {
  const allowed = endpoint.max_retries + 1;
  const { retryBaseMs } = pacing;
  let outcome: AttemptOutcome = { ok: false };
  for (let attempt = 1; attempt <= allowed; attempt++) {
    outcome = await sendOnce(endpoint, headers, body, pacing.allowPrivate);
    if (outcome.ok) return { endpoint: endpoint.label, ok: true, attempts: attempt, status: outcome.status };
    if (outcome.final) {
      warn(`${endpoint.label}: ${event} not sent: ${outcome.error}`);
      return { endpoint: endpoint.label, ok: false, attempts: attempt, error: outcome.error };
    }
    if (attempt < allowed) {
      const delayMs = retryBaseMs * 2 ** (attempt - 1);
      warn(`${endpoint.label}: ${event} attempt ${attempt} of ${allowed} failed (${outcome.error}); retrying in ${describeDelay(delayMs)}`);
      await sleep(delayMs);
    }
  }
  warn(`${endpoint.label}: ${event} not delivered after ${allowed} attempt${allowed > 1 ? "s" : ""}: ${outcome.error}`);
  return { endpoint: endpoint.label, ok: false, attempts: allowed, ...(outcome.status !== undefined ? { status: outcome.status } : {}), error: outcome.error };
}

/**
 * One request over a fresh connection pinned to the host's vetted addresses. Redirects are never followed
 * (a redirect could carry the signed body to another host; the configured URL must be the final one).
 */
async function sendOnce(endpoint: WebhookEndpoint, headers: Headers, body: Buffer | null, allowPrivate: boolean): Promise<AttemptOutcome> {
  const signal = AbortSignal.timeout(endpoint.timeout_secs * 1000);
  try {
    const url = new URL(endpoint.url);
    const vetting = vetHost(url.hostname, { allowPrivate });
    const addresses = await Promise.race([vetting, new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }))]);
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const status = await new Promise<number>((resolve, reject) => {
      const request = send(url, { method: endpoint.method.toUpperCase(), headers: Object.fromEntries(headers), lookup: pinnedLookup(addresses), agent: false, signal }, (response: IncomingMessage) => {
        // The answer's body is of no interest, but an unread body would hold the connection open.
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on("error", reject);
      request.end(body ?? undefined);
    });
    if (status >= 200 && status < 300) return { ok: true, status };
    return { ok: false, status, error: describeStatus(status) };
  } catch (error) {
    if (error instanceof AddressRefusal && error.reason === "address") {
      // The category only: the host and its address are not repeated (the URL may hold a token).
      return { ok: false, final: true, error: `the url's host is a ${error.category} address; ${PUBLIC_ONLY}` };
    }
    if (error instanceof AddressRefusal) return { ok: false, error: "host name not found" };
    return { ok: false, error: describeTransportError(error, endpoint.timeout_secs) };
  }
}

/** Why a private target was refused, and who can change that: the run's starter, or a service's operator. */
const PUBLIC_ONLY =
  "this run sends webhooks to public addresses only (--webhook-targets=public; the runs of a strand service send to private addresses too when its operator sets SERVICE_WEBHOOK_ALLOW_PRIVATE=1)";

function describeStatus(status: number): string {
  if (status >= 300 && status < 400) return `HTTP ${status}, a redirect, which is never followed; configure the final address as the url`;
  return `HTTP ${status}`;
}

const TRANSPORT_PROBLEMS: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host name not found",
  EAI_AGAIN: "host name lookup failed",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
  UND_ERR_SOCKET: "connection closed unexpectedly",
  UND_ERR_HEADERS_TIMEOUT: "no answer in time",
};

/**
 * Names a transport failure by its error code only: the messages of Node's network errors quote the
 * host, the address or the whole URL, and the URL may hold an access token.
 */
function describeTransportError(error: unknown, timeoutSecs: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) return `no answer within ${timeoutSecs} s`;
  const code = errorCode(error instanceof Error ? error.cause : undefined) ?? errorCode(error);
  if (code === undefined) return "request failed";
  if (TRANSPORT_PROBLEMS[code]) return TRANSPORT_PROBLEMS[code];
  if (/CERT|TLS|SSL/.test(code)) return `TLS certificate rejected (${code})`;
  return `request failed (${code})`;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  const code = (error as { code: unknown }).code;
  // Only a bare identifier is safe to print; anything else might be message text.
  return typeof code === "string" && /^[A-Z0-9_]{2,64}$/.test(code) ? code : undefined;
}

function describeDelay(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** A warn callback that cannot break delivery by throwing. */
function quietly(warn: (message: string) => void): (message: string) => void {
  return (message) => {
    try {
      warn(message);
    } catch {
      // Reporting is best-effort too.
    }
  };
}
