/**
 * The service's log: pino JSON lines on stdout (readable colours instead when stdout is a terminal), the
 * level from `SERVICE_LOG_LEVEL`, and credentials redacted by configuration — authorization and cookie
 * headers, API keys, passwords, secrets, tokens and license text wherever they appear in a logged object,
 * and the values of such parameters in logged URLs. Every line written while a request is handled carries
 * that request's `request_id` (the tracing middleware opens the request's context).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { pino, type DestinationStream, type Logger, type LoggerOptions } from "pino";
import pretty from "pino-pretty";

export type { Logger };

/** Levels `SERVICE_LOG_LEVEL` may name. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** Names whose values are credentials, wherever they appear (object keys, header names, URL parameters). */
const SECRET_NAMES = ["authorization", "cookie", "set-cookie", "x-api-key", "api_key", "apikey", "apiKey", "password", "passwd", "secret", "client_secret", "token", "access_token", "refresh_token", "id_token", "session", "license_data", "private_key"];

/** Where pino looks for those names: top level, and one or two objects down (`headers.authorization`, `req.headers.cookie`). */
export const REDACTED_PATHS = SECRET_NAMES.flatMap((name) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : `["${name}"]`;
  const join = (prefix: string) => (key.startsWith("[") ? `${prefix}${key}` : `${prefix}.${key}`);
  return [key.startsWith("[") ? `${key}` : key, join("*"), join("*.*")];
});

const SECRET_PARAMETER = new RegExp(`([?&;](?:${SECRET_NAMES.map((name) => name.replace(/[-]/g, "\\-")).join("|")}|key|code|sig|signature)=)[^&;#\\s]*`, "gi");

/** A URL or path safe to log: user info and the values of credential-like query parameters replaced. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/[^/@\s]*@/, "//[redacted]@").replace(SECRET_PARAMETER, "$1[redacted]");
}

interface RequestContext {
  requestId: string;
}

const requestContext = new AsyncLocalStorage<RequestContext>();

/** Runs `work` as part of the request `requestId`: log lines written meanwhile carry its id. */
export function withRequestContext<T>(requestId: string, work: () => T): T {
  return requestContext.run({ requestId }, work);
}

/** The id of the request being handled, if any. */
export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

export interface LoggerSettings {
  /** `SERVICE_LOG_LEVEL` (default info). */
  level?: string;
  /** Where lines go (default stdout); tests collect them. */
  destination?: DestinationStream;
  /** Human-readable lines instead of JSON (default: when stdout is a terminal and no destination is given). */
  pretty?: boolean;
  /** This process's instance id, on every line (`instance_id`). */
  instanceId?: string;
}

/** The pino options every service logger uses: level, redaction, the request id mixin, ISO timestamps. */
export function loggerOptions(level = "info", instanceId?: string): LoggerOptions {
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new Error(`SERVICE_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got '${level}'`);
  return {
    level,
    base: instanceId ? { service: "strand", instance_id: instanceId } : { service: "strand" },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    mixin: () => {
      const requestId = currentRequestId();
      return requestId === undefined ? {} : { request_id: requestId };
    },
    formatters: { level: (label) => ({ level: label }) },
  };
}

/** A service logger. */
export function createLogger(settings: LoggerSettings = {}): Logger {
  const options = loggerOptions(settings.level, settings.instanceId);
  const usePretty = settings.pretty ?? (settings.destination === undefined && process.stdout.isTTY === true);
  if (usePretty) return pino(options, pretty({ colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,service" }));
  return pino(options, settings.destination ?? pino.destination({ dest: 1, sync: false }));
}
