/**
 * The service's configuration, built from the one table of environment variables (`settings.ts`), with
 * command-line flags of `strand serve` taking precedence. `createApp` takes these same fields.
 */
import type { LicensePlaces } from "../license/license.js";
import { oauthSettingsOf, type OAuthSettings } from "./domains/auth/oauth-settings.js";
import type { UserLimits } from "./domains/execution/user-limits.js";
import type { EngineLimits } from "./engine-pool.js";
import type { JobNetwork, SandboxSetting } from "./runner/sandbox.js";
import { AI_VARIABLES, licensePlacesOf, OAUTH_VARIABLES, readSettings, textValues, type AiEnvironment, type ServiceMode, type Settings } from "./settings.js";
import { normaliseBasePath } from "./static-content.js";
import type { StorageQuota } from "./store/pipelines/contract.js";

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
  /** `SERVICE_INSTANCE_ID`: this process's name among the instances of one database ("" : made at start). */
  instanceId: string;
  /** Revision text kept: `SERVICE_PIPELINE_QUOTA_MB` per pipeline (50), `SERVICE_USER_QUOTA_MB` per owner (500). */
  quota: Required<StorageQuota>;
  /** `SERVICE_SESSION_HOURS`: a sign-in session ends after this long without use (default 168, a week). */
  sessionTtlMs: number;
  /** `SERVICE_ADMIN_PASSWORD`: creates, or resets the password of, the `admin` account at start (team and hpc modes). */
  adminPassword: string | undefined;
  /** `SERVICE_CLUSTERS_FILE`: remote clusters added to the registry at start when their id is free. */
  clustersFile: string | undefined;
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
  /** `SERVICE_AI_*` and the providers' own variables (ANTHROPIC_API_KEY, OLLAMA_HOST, …): the AI provider chain. */
  ai: AiEnvironment;
  /** `SERVICE_AI_ALLOW_PRIVATE_URLS=1`: users of a team service may point their own AI provider at private addresses. */
  aiAllowPrivateUrls: boolean;
  /** `SERVICE_SECRET_KEY`: the key that seals stored AI provider keys (else `secret.key` in the configuration folder). */
  secretKey: string | undefined;
  /** `SERVICE_PLUGIN_TRUSTED_KEYS`: the Ed25519 keys plugin signatures are trusted from. */
  pluginTrustedKeys: string;
  /** `SERVICE_LICENSE`, the configuration folder and `SERVICE_LICENSE_PUBLIC_KEY`: where the license is found and what checks it. */
  license: LicensePlaces;
}

/** Whether a listen address is a loopback one (a personal service without sign-in must not listen beyond it). */
function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The engine-work limits the settings give (the rest keep their defaults). */
function engineLimits(settings: Settings): Partial<EngineLimits> {
  const limits: Partial<EngineLimits> = {};
  if (settings.SERVICE_ENGINE_TIMEOUT !== undefined) limits.deadlineMs = settings.SERVICE_ENGINE_TIMEOUT * 1000;
  if (settings.SERVICE_ENGINE_MEMORY_MB !== undefined) limits.memoryMb = settings.SERVICE_ENGINE_MEMORY_MB;
  if (settings.SERVICE_ENGINE_THREADS !== undefined) {
    limits.threads = settings.SERVICE_ENGINE_THREADS;
    limits.maxQueue = 32 * limits.threads;
  }
  return limits;
}

const MB = 1024 * 1024;

/** Reads the settings (settings.ts, the one table of variables); an invalid value is an error that names the variable. */
export function serviceConfig(env: NodeJS.ProcessEnv = process.env, flags: Partial<Pick<ServiceConfig, "host" | "port" | "mode">> = {}): ServiceConfig {
  const settings = readSettings(env, flags.mode);
  const mode = settings.SERVICE_MODE;
  const host = flags.host ?? settings.SERVICE_HOST;
  // A container publishes its port on the host's loopback address: it says so with SERVICE_PERSONAL_ANY_ADDRESS=1.
  if (mode === "personal" && !isLoopback(host) && !settings.SERVICE_PERSONAL_ANY_ADDRESS) {
    throw new Error(
      `personal mode has no sign-in, so it listens on a loopback address only, not '${host}': use SERVICE_MODE=team (accounts and sign-in) to share the service, or listen on 127.0.0.1`,
    );
  }
  return {
    host,
    port: flags.port ?? settings.SERVICE_PORT,
    mode,
    rateLimit: settings.SERVICE_RATE_LIMIT,
    trustedProxies: settings.SERVICE_TRUSTED_PROXY,
    corsOrigins: settings.SERVICE_CORS_ORIGINS,
    bodyLimit: settings.SERVICE_BODY_LIMIT,
    basePath: normaliseBasePath(settings.SERVICE_BASE_PATH),
    dataDir: settings.SERVICE_DATA_DIR,
    configDir: settings.SERVICE_CONFIG_DIR,
    sandbox: settings.SERVICE_SANDBOX,
    dataRoots: settings.SERVICE_DATA_ROOTS,
    allowRoot: settings.SERVICE_ALLOW_ROOT,
    sandboxUser: settings.SERVICE_SANDBOX_USER,
    jobNetwork: settings.SERVICE_JOB_NETWORK,
    jobMaxProcesses: settings.SERVICE_JOB_MAX_PROCESSES,
    workspaceQuotaBytes: settings.SERVICE_USER_WORKSPACE_MB * MB,
    referenceRoots: settings.SERVICE_REFERENCE_ROOTS,
    uploadLimitBytes: settings.SERVICE_UPLOAD_LIMIT_MB * MB,
    databaseUrl: settings.SERVICE_DATABASE_URL,
    publicUrl: settings.SERVICE_PUBLIC_URL,
    importAllowPrivate: settings.SERVICE_IMPORT_ALLOW_PRIVATE,
    webhookAllowPrivate: settings.SERVICE_WEBHOOK_ALLOW_PRIVATE,
    allowedHosts: settings.SERVICE_ALLOWED_HOSTS,
    engine: engineLimits(settings),
    logLevel: settings.SERVICE_LOG_LEVEL,
    instanceId: settings.SERVICE_INSTANCE_ID,
    quota: { pipelineBytes: settings.SERVICE_PIPELINE_QUOTA_MB * MB, ownerBytes: settings.SERVICE_USER_QUOTA_MB * MB },
    sessionTtlMs: settings.SERVICE_SESSION_HOURS * 3600 * 1000,
    userLimits: { maxRuns: settings.SERVICE_USER_MAX_RUNS, maxThreads: settings.SERVICE_USER_MAX_THREADS },
    eventStreamsPerUser: settings.SERVICE_EVENT_STREAMS_PER_USER,
    signInFailures: settings.SERVICE_SIGNIN_MAX_FAILURES,
    aiTimeoutMs: settings.SERVICE_AI_TIMEOUT * 1000,
    adminPassword: settings.SERVICE_ADMIN_PASSWORD,
    clustersFile: settings.SERVICE_CLUSTERS_FILE,
    // Personal mode has no sign-in: OAuth settings left in the environment neither apply nor stop it.
    oauth: mode === "personal" ? {} : oauthSettingsOf(textValues(settings, OAUTH_VARIABLES)),
    ai: textValues(settings, AI_VARIABLES),
    aiAllowPrivateUrls: settings.SERVICE_AI_ALLOW_PRIVATE_URLS,
    secretKey: settings.SERVICE_SECRET_KEY,
    pluginTrustedKeys: settings.SERVICE_PLUGIN_TRUSTED_KEYS,
    license: licensePlacesOf(settings),
  };
}

