/**
 * The service's settings from the environment (api-decisions "Names and places" and "Every response"),
 * with command-line flags of `strand serve` taking precedence.
 */
import type { ServiceMode } from "./app.js";
import { corsOriginsFromEnv } from "./middleware/cors.js";
import { normaliseBasePath } from "./static-content.js";

export interface ServiceConfig {
  host: string;
  port: number;
  mode: ServiceMode;
  rateLimit: number;
  trustedProxies: string[];
  corsOrigins: string[];
  bodyLimit: number;
  basePath: string;
}

function integer(value: string | undefined, name: string, fallback: number, minimum = 0): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < minimum) throw new Error(`${name} must be a whole number of at least ${minimum}, got '${value}'`);
  return parsed;
}

/** Reads the settings; an invalid value is an error that names the variable. */
export function serviceConfig(env: NodeJS.ProcessEnv = process.env, flags: Partial<Pick<ServiceConfig, "host" | "port" | "mode">> = {}): ServiceConfig {
  const mode = flags.mode ?? (env.SERVICE_MODE as ServiceMode | undefined) ?? "personal";
  if (!["personal", "team", "hpc"].includes(mode)) throw new Error(`SERVICE_MODE must be personal, team or hpc, got '${mode}'`);
  return {
    host: flags.host ?? env.SERVICE_HOST ?? "127.0.0.1",
    port: flags.port ?? integer(env.SERVICE_PORT, "SERVICE_PORT", 8080),
    mode,
    rateLimit: integer(env.SERVICE_RATE_LIMIT, "SERVICE_RATE_LIMIT", 100),
    trustedProxies: (env.SERVICE_TRUSTED_PROXY ?? "").split(",").map((entry) => entry.trim()).filter(Boolean),
    corsOrigins: corsOriginsFromEnv(env),
    bodyLimit: integer(env.SERVICE_BODY_LIMIT, "SERVICE_BODY_LIMIT", 10 * 1024 * 1024, 1),
    basePath: normaliseBasePath(env.SERVICE_BASE_PATH),
  };
}
