/**
 * The `[webhook]` table (or `[[webhook]]` array): validates each endpoint as written and fills in defaults.
 *
 * Messages name an endpoint by its position ("webhook #2") and never repeat its URL, header values or
 * secret: chat-service URLs carry their access token in the path, and these messages end up in run logs.
 */
import { nearestKey } from "../nearest-key.js";
import { EngineError } from "../findings.js";
import type { TomlValue } from "../format/model.js";

/** Every event name a webhook may subscribe to. */
export const WEBHOOK_EVENTS = ["workflow_started", "workflow_completed", "workflow_failed", "rule_completed", "rule_failed"] as const;

/** An event a webhook may subscribe to. */
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The events a run actually sends; rule events are accepted in configuration only. */
export const DISPATCHED_EVENTS: ReadonlySet<WebhookEvent> = new Set<WebhookEvent>(["workflow_started", "workflow_completed", "workflow_failed"]);

/** When each event is sent, for the events reference (`docs/reference/events.md`); its data keys are `EVENT_DATA_KEYS`. */
export const WEBHOOK_EVENT_SENT: { readonly [E in WebhookEvent]: string } = {
  workflow_started: "when the run begins",
  workflow_completed: "when every required rule succeeded",
  workflow_failed: "when the run failed or was cancelled",
  rule_completed: "never: accepted in `events` so older files still load, and `strand run` warns that it has no effect",
  rule_failed: "never: accepted in `events` so older files still load, and `strand run` warns that it has no effect",
};

/** The HTTP method of a delivery. */
export type WebhookMethod = "post" | "put" | "get";

/** How the body is signed when a secret is set. */
export type SignatureScheme = "hmac-sha256" | "sha256-keyed";

/** The body's shape: the plain payload, or a chat-service message built from it. */
export type WebhookFormat = "json" | "chat";

/** One validated endpoint, every default filled in. */
export interface WebhookEndpoint {
  /** How messages name this endpoint ("webhook #1"), since they must never show its URL. */
  label: string;
  url: string;
  method: WebhookMethod;
  headers: Record<string, string>;
  events: WebhookEvent[];
  secret: string | null;
  timeout_secs: number;
  max_retries: number;
  signature_scheme: SignatureScheme;
  format: WebhookFormat;
  /** The engine version, sent as the payload's `version` and in the User-Agent. */
  senderVersion: string;
}

/** The endpoints of a workflow, plus warnings worth printing once at the start of a run. */
export interface WebhookSettings {
  endpoints: WebhookEndpoint[];
  warnings: string[];
}

/** Options for reading the webhook tables. */
export interface ReadWebhooksOptions {
  /** The engine version: stamped into every payload, and used to say which major version drops the legacy scheme. */
  version: string;
}

const METHODS: readonly WebhookMethod[] = ["post", "put", "get"];
const SCHEMES: readonly SignatureScheme[] = ["hmac-sha256", "sha256-keyed"];
const FORMATS: readonly WebhookFormat[] = ["json", "chat"];
const KNOWN_KEYS = ["url", "method", "headers", "events", "secret", "timeout_secs", "max_retries", "signature_scheme", "format"];

/** Long enough for a slow chat service, short enough that a dead endpoint cannot hold a finished run for hours. */
const MAX_TIMEOUT_SECS = 3600;
/** Ten retries already wait 2^10 - 1 s (about 17 minutes) in backoff alone. */
const MAX_RETRIES = 10;

/** The engine sets these itself; a custom value would break delivery or forge the signature. */
const RESERVED_HEADERS = new Set(["content-type", "content-length", "host", "connection", "transfer-encoding", "x-service-signature"]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// fetch rejects CR, LF and NUL, and anything outside Latin-1 (header values are byte strings).
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Validates the `[webhook]` tables as loaded and returns the endpoints with their defaults. */
export function readWebhooks(tables: readonly Record<string, TomlValue>[], options: ReadWebhooksOptions): WebhookSettings {
  const warnings: string[] = [];
  const endpoints = tables.map((table, index) => readEndpoint(table, `webhook #${index + 1}`, options, warnings));
  return { endpoints, warnings };
}

function readEndpoint(table: Record<string, TomlValue>, label: string, options: ReadWebhooksOptions, warnings: string[]): WebhookEndpoint {
  for (const key of Object.keys(table)) {
    if (KNOWN_KEYS.includes(key)) continue;
    const nearest = nearestKey(key, KNOWN_KEYS);
    warnings.push(`${label}: unknown key "${key}" is ignored${nearest ? ` (did you mean "${nearest}"?)` : ""}`);
  }
  const endpoint: WebhookEndpoint = {
    label,
    url: readUrl(table.url, label),
    method: readChoice(table.method, "method", METHODS, "post", label, true),
    headers: readHeaders(table.headers, label),
    events: readEvents(table.events, label, warnings),
    secret: readSecret(table.secret, label),
    timeout_secs: readInteger(table.timeout_secs, "timeout_secs", 30, 1, MAX_TIMEOUT_SECS, label),
    max_retries: readInteger(table.max_retries, "max_retries", 3, 0, MAX_RETRIES, label),
    signature_scheme: readChoice(table.signature_scheme, "signature_scheme", SCHEMES, "hmac-sha256", label, false),
    format: readChoice(table.format, "format", FORMATS, "json", label, false),
    senderVersion: options.version,
  };
  if (endpoint.signature_scheme === "sha256-keyed") warnings.push(legacySchemeWarning(label, options.version));
  return endpoint;
}

function configError(label: string, field: string, problem: string, suggestion: string): EngineError {
  return new EngineError("CONFIG_ERROR", `${label} → ${field}: ${problem}`, { suggestion });
}

/** Describes a value the user wrote without quoting anything that could be secret. */
function typeName(value: TomlValue): string {
  if (Array.isArray(value)) return "an array";
  if (value instanceof Date) return "a date";
  if (typeof value === "object") return "a table";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  return `a ${typeof value}`;
}

function readUrl(value: TomlValue | undefined, label: string): string {
  const suggestion = 'write the endpoint in full, e.g. url = "https://hooks.example.org/services/…"';
  if (value === undefined) throw configError(label, "url", "is required", suggestion);
  if (typeof value !== "string") throw configError(label, "url", `expected a string, found ${typeName(value)}`, suggestion);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw configError(label, "url", "is not a valid absolute URL", suggestion);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw configError(label, "url", `must use http or https (found ${url.protocol.slice(0, -1)})`, suggestion);
  }
  if (url.username !== "" || url.password !== "") {
    // fetch refuses URLs with credentials, and they would leak into any log that prints the URL.
    throw configError(label, "url", "must not contain a user name or password", 'send credentials in a header instead, e.g. headers = { Authorization = "Bearer …" }');
  }
  return value;
}

function readChoice<T extends string>(
  value: TomlValue | undefined,
  field: string,
  choices: readonly T[],
  fallback: T,
  label: string,
  anyCase: boolean,
): T {
  if (value === undefined) return fallback;
  const suggestion = `use one of ${choices.map((choice) => `"${choice}"`).join(", ")} (default "${fallback}")`;
  if (typeof value !== "string") throw configError(label, field, `expected a string, found ${typeName(value)}`, suggestion);
  const written = anyCase ? value.toLowerCase() : value;
  const choice = choices.find((candidate) => candidate === written);
  if (choice === undefined) throw configError(label, field, `"${value}" is not one of ${choices.join(", ")}`, suggestion);
  return choice;
}

function readHeaders(value: TomlValue | undefined, label: string): Record<string, string> {
  if (value === undefined) return {};
  const suggestion = 'write a table of text values, e.g. headers = { Authorization = "Bearer …" }';
  if (typeof value !== "object" || Array.isArray(value) || value instanceof Date) {
    throw configError(label, "headers", `expected a table, found ${typeName(value)}`, suggestion);
  }
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, headerValue] of Object.entries(value)) {
    const field = `headers.${name}`;
    if (!HEADER_NAME.test(name)) throw configError(label, "headers", "a header name may hold only letters, digits and !#$%&'*+-.^_`|~", suggestion);
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower)) {
      throw configError(label, field, "is set by strand itself and cannot be overridden", "remove this header; the body is always sent as application/json and signed through `secret`");
    }
    if (seen.has(lower)) throw configError(label, field, "is given twice (header names ignore case)", "keep one of the two entries");
    seen.add(lower);
    if (typeof headerValue !== "string") throw configError(label, field, `expected a string, found ${typeName(headerValue)}`, suggestion);
    if (!HEADER_VALUE.test(headerValue)) {
      throw configError(label, field, "contains a line break, a control character or a character outside Latin-1", "header values must be a single line of plain text");
    }
    headers[name] = headerValue;
  }
  return headers;
}

function readEvents(value: TomlValue | undefined, label: string, warnings: string[]): WebhookEvent[] {
  if (value === undefined) return ["workflow_completed"];
  const suggestion = `write an array of event names, e.g. events = ["workflow_completed", "workflow_failed"]; known events: ${WEBHOOK_EVENTS.join(", ")}`;
  if (!Array.isArray(value)) throw configError(label, "events", `expected an array, found ${typeName(value)}`, suggestion);
  const events: WebhookEvent[] = [];
  for (const item of value) {
    if (typeof item !== "string") throw configError(label, "events", `expected event names, found ${typeName(item)}`, suggestion);
    const event = WEBHOOK_EVENTS.find((known) => known === item);
    if (event === undefined) {
      const nearest = nearestKey(item, WEBHOOK_EVENTS);
      throw configError(label, "events", `unknown event "${item}"`, nearest ? `did you mean "${nearest}"? Known events: ${WEBHOOK_EVENTS.join(", ")}` : suggestion);
    }
    if (!events.includes(event)) events.push(event);
  }
  const ignored = events.filter((event) => !DISPATCHED_EVENTS.has(event));
  const neverSent = ignored.length > 0 ? `${ignored.join(" and ")} ${ignored.length > 1 ? "are" : "is"} accepted but never sent` : "";
  if (ignored.length === events.length) {
    warnings.push(`${label}: will never be called, since it subscribes to no event that is sent${neverSent ? ` (${neverSent})` : ""}`);
  } else if (neverSent) {
    warnings.push(`${label}: ${neverSent}`);
  }
  return events;
}

function readSecret(value: TomlValue | undefined, label: string): string | null {
  if (value === undefined) return null;
  const suggestion = 'write the signing key as text, e.g. secret = "…", or remove the key to send unsigned requests';
  if (typeof value !== "string") throw configError(label, "secret", `expected a string, found ${typeName(value)}`, suggestion);
  if (value === "") throw configError(label, "secret", "is empty", suggestion);
  return value;
}

function readInteger(value: TomlValue | undefined, field: string, fallback: number, min: number, max: number, label: string): number {
  if (value === undefined) return fallback;
  const suggestion = `write a whole number from ${min} to ${max}, e.g. ${field} = ${fallback} (the default)`;
  if (typeof value !== "number") throw configError(label, field, `expected an integer, found ${typeName(value)}`, suggestion);
  if (!Number.isInteger(value) || value < min || value > max) throw configError(label, field, `must be a whole number from ${min} to ${max} (found ${value})`, suggestion);
  return value;
}

function legacySchemeWarning(label: string, version: string): string {
  const major = /^(\d+)\./.exec(version);
  const removal = major ? `strand ${Number(major[1]) + 1}.0` : "a future major version";
  return (
    `${label}: signature_scheme "sha256-keyed" is deprecated and will be removed in ${removal}; ` +
    `it signs with a plain SHA-256 of secret and body, which is open to length-extension forgery. ` +
    `Switch to "hmac-sha256" (the default) and verify the HMAC at the receiver`
  );
}
