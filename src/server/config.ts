/**
 * The service's settings from the environment (api-decisions "Names and places" and "Every response"),
 * with command-line flags of `strand serve` taking precedence.
 */
import { availableParallelism, homedir } from "node:os";
import { join, resolve } from "node:path";
import type { ServiceMode } from "./app.js";
import type { EngineLimits } from "./engine-pool.js";
import { LOG_LEVELS } from "./logger.js";
import { configDir as licenseConfigDir } from "../license/license.js";
import { DEFAULT_JOB_PROCESSES, JOB_NETWORKS, parseDataRoots, SANDBOX_SETTINGS, type JobNetwork, type SandboxSetting } from "./runner/sandbox.js";
import type { StorageQuota } from "./store/pipelines/contract.js";
import type { UserLimits } from "./domains/execution/user-limits.js";
import { DEFAULT_SIGN_IN_FAILURES } from "./domains/auth/sign-in-throttle.js";
import { corsOriginsFromEnv } from "./middleware/cors.js";
import { normaliseBasePath } from "./static-content.js";
import { oauthSettingsFromEnv, type OAuthSettings } from "./domains/auth/oauth-settings.js";

export interface ServiceConfig {
  host: string;
  port: number;
  mode: ServiceMode;
  rateLimit: number;
  trustedProxies: string[];
  corsOrigins: string[];
  bodyLimit: number;
  basePath: string;
  /** `SERVICE_DATA_DIR`: the embedded database, run workspaces and uploads. */
  dataDir: string;
  /** `SERVICE_CONFIG_DIR` (default ~/.config/strand): the license and other settings files; hidden from jobs. */
  configDir: string;
  /** `SERVICE_SANDBOX`: auto (bwrap in team and hpc modes), bwrap or off; see runner/sandbox.ts. */
  sandbox: SandboxSetting;
  /** `SERVICE_DATA_ROOTS`: folders (`:` or `,` separated) jobs may read inside the sandbox. */
  dataRoots: string[];
  /** `SERVICE_ALLOW_ROOT=1`: team and hpc modes may start as root (their sandboxes then run as `sandboxUser`). */
  allowRoot: boolean;
  /** `SERVICE_SANDBOX_USER`: the unprivileged account a root service's sandboxes run under (default nobody). */
  sandboxUser: string;
  /** `SERVICE_JOB_NETWORK`: jobs get their own empty network (`none`, the default) or the host's (`host`). */
  jobNetwork: JobNetwork;
  /** `SERVICE_JOB_MAX_PROCESSES`: processes and threads one job may have at once in the sandbox (default 1024). */
  jobMaxProcesses: number;
  /** `SERVICE_USER_WORKSPACE_MB` in bytes: each user's run workspaces together (0: no quota, the default). */
  workspaceQuotaBytes: number;
  /** `SERVICE_REFERENCE_ROOTS`: folders (`:` or `,` separated) searched for reference genomes (default none). */
  referenceRoots: string[];
  /** `SERVICE_UPLOAD_LIMIT_MB`: the largest file an upload stores (default 1024), in bytes. */
  uploadLimitBytes: number;
  /** `SERVICE_DATABASE_URL`: a `postgres://` URL selects PostgreSQL; empty means the embedded SQLite file. */
  databaseUrl: string;
  /** `SERVICE_PUBLIC_URL`: the address users reach the service at (share links name its host). */
  publicUrl: string | undefined;
  /** `SERVICE_IMPORT_ALLOW_PRIVATE=1`: imports may fetch from loopback and private addresses (tests only). */
  importAllowPrivate: boolean;
  /** `SERVICE_WEBHOOK_ALLOW_PRIVATE=1`: webhooks of the runs the service starts may reach loopback, private and link-local addresses. */
  webhookAllowPrivate: boolean;
  /** `SERVICE_ALLOWED_HOSTS`: more host names a personal service answers to (besides IP addresses, localhost and the listen host). */
  allowedHosts: string[];
  /** Limits of engine work for requests: `SERVICE_ENGINE_TIMEOUT` (s), `SERVICE_ENGINE_MEMORY_MB`, `SERVICE_ENGINE_THREADS`. */
  engine: Partial<EngineLimits>;
  /** `SERVICE_LOG_LEVEL`: fatal, error, warn, info (default), debug, trace or silent. */
  logLevel: string;
  /** Revision text kept: `SERVICE_PIPELINE_QUOTA_MB` per pipeline (50), `SERVICE_USER_QUOTA_MB` per owner (500). */
  quota: Required<StorageQuota>;
  /** `SERVICE_SESSION_HOURS`: a sign-in session ends after this long without use (default 168, a week). */
  sessionTtlMs: number;
  /** `SERVICE_ADMIN_PASSWORD`: creates, or resets the password of, the `admin` account at start (team and hpc modes). */
  adminPassword: string | undefined;
  /** `SERVICE_USER_MAX_RUNS` and `SERVICE_USER_MAX_THREADS` (0: no limit); defaults by mode in `userLimits`. */
  userLimits: UserLimits;
  /** `SERVICE_EVENT_STREAMS_PER_USER`: event streams (`GET /api/events`) one user may hold at once (0: no limit; default 8, none in personal mode). */
  eventStreamsPerUser: number;
  /** `SERVICE_SIGNIN_MAX_FAILURES`: failed sign-ins of one account before further attempts are delayed (default 5, 0 off). */
  signInFailures: number;
  /** `SERVICE_AI_TIMEOUT`: seconds one AI provider may take for one call before the next is tried (default 180). */
  aiTimeoutMs: number;
  /** `SERVICE_OAUTH_<GITHUB|ORCID>_CLIENT_ID` / `_CLIENT_SECRET` / `_BASE_URL` (and `SERVICE_OAUTH_GITHUB_API_URL`): sign-in with GitHub and ORCID (team and hpc modes). */
  oauth: OAuthSettings;
}

/** Whether a listen address is a loopback one (a personal service without sign-in must not listen beyond it). */
function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The platform data directory for strand: `$XDG_DATA_HOME/strand`, else `~/.local/share/strand`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith("/") ? env.XDG_DATA_HOME : join(env.HOME || homedir(), ".local", "share");
  return join(base, "strand");
}

function publicUrl(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`SERVICE_PUBLIC_URL must be an absolute URL such as https://strand.example.org, got '${value}'`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`SERVICE_PUBLIC_URL must be an http(s) URL, got '${value}'`);
  return url.origin;
}

function integer(value: string | undefined, name: string, fallback: number, minimum = 0): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < minimum) throw new Error(`${name} must be a whole number of at least ${minimum}, got '${value}'`);
  return parsed;
}

function sandboxSetting(value: string | undefined): SandboxSetting {
  const setting = value?.trim() || "auto";
  if (!(SANDBOX_SETTINGS as readonly string[]).includes(setting)) throw new Error(`SERVICE_SANDBOX must be ${SANDBOX_SETTINGS.join(", ")}, got '${value}'`);
  return setting as SandboxSetting;
}

function jobNetwork(value: string | undefined): JobNetwork {
  const setting = value?.trim() || "none";
  if (!(JOB_NETWORKS as readonly string[]).includes(setting)) throw new Error(`SERVICE_JOB_NETWORK must be ${JOB_NETWORKS.join(" or ")}, got '${value}'`);
  return setting as JobNetwork;
}

function logLevel(value: string | undefined): string {
  const level = value?.trim() || "info";
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new Error(`SERVICE_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got '${value}'`);
  return level;
}

/** The engine-work limits the environment sets (the rest keep their defaults). */
function engineLimits(env: NodeJS.ProcessEnv): Partial<EngineLimits> {
  const limits: Partial<EngineLimits> = {};
  if (env.SERVICE_ENGINE_TIMEOUT) limits.deadlineMs = integer(env.SERVICE_ENGINE_TIMEOUT, "SERVICE_ENGINE_TIMEOUT", 20, 1) * 1000;
  if (env.SERVICE_ENGINE_MEMORY_MB) limits.memoryMb = integer(env.SERVICE_ENGINE_MEMORY_MB, "SERVICE_ENGINE_MEMORY_MB", 1024, 64);
  if (env.SERVICE_ENGINE_THREADS) {
    limits.threads = integer(env.SERVICE_ENGINE_THREADS, "SERVICE_ENGINE_THREADS", 2, 1);
    limits.maxQueue = 32 * limits.threads;
  }
  return limits;
}

/**
 * Per-user run limits: none in personal mode; in team mode 4 active runs and as many threads (jobs at once)
 * as the machine has CPUs; in hpc mode 4 active runs and no thread limit (jobs go to the scheduler, whose
 * own limits share the cluster).
 */
function userLimits(env: NodeJS.ProcessEnv, mode: ServiceMode): UserLimits {
  return {
    maxRuns: integer(env.SERVICE_USER_MAX_RUNS, "SERVICE_USER_MAX_RUNS", mode === "personal" ? 0 : 4),
    maxThreads: integer(env.SERVICE_USER_MAX_THREADS, "SERVICE_USER_MAX_THREADS", mode === "team" ? availableParallelism() : 0),
  };
}

/** Reads the settings; an invalid value is an error that names the variable. */
export function serviceConfig(env: NodeJS.ProcessEnv = process.env, flags: Partial<Pick<ServiceConfig, "host" | "port" | "mode">> = {}): ServiceConfig {
  const mode = flags.mode ?? (env.SERVICE_MODE as ServiceMode | undefined) ?? "personal";
  if (!["personal", "team", "hpc"].includes(mode)) throw new Error(`SERVICE_MODE must be personal, team or hpc, got '${mode}'`);
  const host = flags.host ?? env.SERVICE_HOST ?? "127.0.0.1";
  // A container publishes its port on the host's loopback address: it says so with SERVICE_PERSONAL_ANY_ADDRESS=1.
  if (mode === "personal" && !isLoopback(host) && env.SERVICE_PERSONAL_ANY_ADDRESS !== "1") {
    throw new Error(
      `personal mode has no sign-in, so it listens on a loopback address only, not '${host}': use SERVICE_MODE=team (accounts and sign-in) to share the service, or listen on 127.0.0.1`,
    );
  }
  const adminPassword = env.SERVICE_ADMIN_PASSWORD === undefined || env.SERVICE_ADMIN_PASSWORD === "" ? undefined : env.SERVICE_ADMIN_PASSWORD;
  if (adminPassword !== undefined && [...adminPassword].length < 8) throw new Error("SERVICE_ADMIN_PASSWORD must have at least 8 characters");
  return {
    host,
    port: flags.port ?? integer(env.SERVICE_PORT, "SERVICE_PORT", 8080),
    mode,
    rateLimit: integer(env.SERVICE_RATE_LIMIT, "SERVICE_RATE_LIMIT", 100),
    trustedProxies: (env.SERVICE_TRUSTED_PROXY ?? "").split(",").map((entry) => entry.trim()).filter(Boolean),
    corsOrigins: corsOriginsFromEnv(env),
    bodyLimit: integer(env.SERVICE_BODY_LIMIT, "SERVICE_BODY_LIMIT", 10 * 1024 * 1024, 1),
    basePath: normaliseBasePath(env.SERVICE_BASE_PATH),
    dataDir: env.SERVICE_DATA_DIR ? resolve(env.SERVICE_DATA_DIR) : defaultDataDir(env),
    configDir: resolve(licenseConfigDir(env)),
    sandbox: sandboxSetting(env.SERVICE_SANDBOX),
    dataRoots: parseDataRoots(env.SERVICE_DATA_ROOTS),
    allowRoot: env.SERVICE_ALLOW_ROOT === "1",
    sandboxUser: env.SERVICE_SANDBOX_USER?.trim() || "nobody",
    jobNetwork: jobNetwork(env.SERVICE_JOB_NETWORK),
    jobMaxProcesses: integer(env.SERVICE_JOB_MAX_PROCESSES, "SERVICE_JOB_MAX_PROCESSES", DEFAULT_JOB_PROCESSES, 16),
    workspaceQuotaBytes: integer(env.SERVICE_USER_WORKSPACE_MB, "SERVICE_USER_WORKSPACE_MB", 0) * 1024 * 1024,
    referenceRoots: referenceRoots(env.SERVICE_REFERENCE_ROOTS),
    uploadLimitBytes: integer(env.SERVICE_UPLOAD_LIMIT_MB, "SERVICE_UPLOAD_LIMIT_MB", 1024, 1) * 1024 * 1024,
    databaseUrl: env.SERVICE_DATABASE_URL?.trim() ?? "",
    publicUrl: publicUrl(env.SERVICE_PUBLIC_URL),
    importAllowPrivate: env.SERVICE_IMPORT_ALLOW_PRIVATE === "1",
    webhookAllowPrivate: env.SERVICE_WEBHOOK_ALLOW_PRIVATE === "1",
    allowedHosts: (env.SERVICE_ALLOWED_HOSTS ?? "").split(",").map((entry) => entry.trim()).filter(Boolean),
    engine: engineLimits(env),
    logLevel: logLevel(env.SERVICE_LOG_LEVEL),
    quota: {
      pipelineBytes: integer(env.SERVICE_PIPELINE_QUOTA_MB, "SERVICE_PIPELINE_QUOTA_MB", 50, 1) * 1024 * 1024,
      ownerBytes: integer(env.SERVICE_USER_QUOTA_MB, "SERVICE_USER_QUOTA_MB", 500, 1) * 1024 * 1024,
    },
    sessionTtlMs: integer(env.SERVICE_SESSION_HOURS, "SERVICE_SESSION_HOURS", 168, 1) * 3600 * 1000,
    userLimits: userLimits(env, mode),
    eventStreamsPerUser: integer(env.SERVICE_EVENT_STREAMS_PER_USER, "SERVICE_EVENT_STREAMS_PER_USER", mode === "personal" ? 0 : 8),
    signInFailures: integer(env.SERVICE_SIGNIN_MAX_FAILURES, "SERVICE_SIGNIN_MAX_FAILURES", DEFAULT_SIGN_IN_FAILURES),
    aiTimeoutMs: integer(env.SERVICE_AI_TIMEOUT, "SERVICE_AI_TIMEOUT", 180, 1) * 1000,
    adminPassword,
    // Personal mode has no sign-in: OAuth settings left in the environment neither apply nor stop it.
    oauth: mode === "personal" ? {} : oauthSettingsFromEnv(env),
  };
}

/** `SERVICE_REFERENCE_ROOTS`: absolute folders, separated by colons or commas. */
function referenceRoots(value: string | undefined): string[] {
  const roots = (value ?? "").split(/[:,]/).map((entry) => entry.trim()).filter(Boolean);
  for (const root of roots) if (!root.startsWith("/")) throw new Error(`SERVICE_REFERENCE_ROOTS must list absolute folders (separated by : or ,), got '${root}'`);
  return roots.map((root) => resolve(root));
}
