/**
 * Every environment variable the service reads, one row each: its name, its default as people read it, how
 * its text becomes a value (an invalid value is an error that names the variable), and what it sets. This is
 * the only module that reads them: `config.ts` builds the service's configuration from `readSettings`, the
 * command line reads the rows it shares with the service the same way, and the configuration reference
 * (`docs/reference/configuration.md`) is generated from the rows (`npm run docs:generate`; a test fails when
 * the two differ).
 */
import { availableParallelism, homedir } from "node:os";
import { join, resolve } from "node:path";
import type { LicensePlaces } from "../license/license.js";
import { LOG_LEVELS } from "./logger.js";
import { DEFAULT_JOB_PROCESSES, JOB_NETWORKS, SANDBOX_SETTINGS } from "./runner/sandbox.js";

/** The three ways the service runs (docs/guide/team-and-security.md). */
export const SERVICE_MODES = ["personal", "team", "hpc"] as const;

/** How the service runs: one user on a workstation, a team with accounts, or a team on an HPC login node. */
export type ServiceMode = (typeof SERVICE_MODES)[number];

/** What a row's parser may look at besides the variable's own text. */
export interface SettingContext {
  /** The mode the service runs in (some defaults depend on it). */
  mode: ServiceMode;
  /** The whole environment, for conventions of the platform a default follows (XDG_DATA_HOME, HOME). */
  env: NodeJS.ProcessEnv;
}

/** One environment variable. */
export interface Setting<Value> {
  /** The default as the configuration reference shows it (Markdown). */
  readonly shown: string;
  /** What it sets (Markdown, one line). */
  readonly meaning: string;
  /** The section of the configuration reference it belongs to (rows are grouped by it). */
  readonly group: SettingGroup;
  /** Its value from its text (undefined when unset); throws an Error naming the variable when the text is not valid. */
  parse(raw: string | undefined, name: string, context: SettingContext): Value;
}

/** The sections of the configuration reference, in its order. */
export const SETTING_GROUPS = ["listening", "accounts", "requests", "limits", "storage", "sandbox", "outbound", "ai", "plugins"] as const;

/** A group of rows. */
export type SettingGroup = (typeof SETTING_GROUPS)[number];

function setting<Value>(group: SettingGroup, shown: string, meaning: string, parse: Setting<Value>["parse"]): Setting<Value> {
  return { group, shown, meaning, parse };
}

/** The text as given (undefined when unset). */
const raw = (value: string | undefined) => value;

/** Trimmed text, undefined when unset or blank. */
const trimmed = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

/** `1` turns it on; anything else (or nothing) leaves it off. */
const flag = (value: string | undefined) => value === "1";

/** A whole number of at least `minimum`; `fallback` (or the mode's) when unset or empty. */
function integer(fallback: number | ((mode: ServiceMode) => number), minimum = 0): Setting<number>["parse"] {
  return (value, name, { mode }) => {
    if (value === undefined || value === "") return typeof fallback === "function" ? fallback(mode) : fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < minimum) throw new Error(`${name} must be a whole number of at least ${minimum}, got '${value}'`);
    return parsed;
  };
}

/** A whole number when set, else undefined (the consumer keeps its own default). */
function optionalInteger(minimum: number): Setting<number | undefined>["parse"] {
  return (value, name, context) => (value ? integer(0, minimum)(value, name, context) : undefined);
}

/** One of `choices` (named in errors as `wording`), `fallback` when unset or blank. */
function oneOf<Choice extends string>(choices: readonly Choice[], fallback: Choice, wording = choices.join(", ")): Setting<Choice>["parse"] {
  return (value, name) => {
    const chosen = value?.trim() || fallback;
    if (!(choices as readonly string[]).includes(chosen)) throw new Error(`${name} must be ${wording}, got '${value}'`);
    return chosen as Choice;
  };
}

/** Comma-separated entries, trimmed, blanks dropped. */
const commaList = (value: string | undefined) => (value ?? "").split(",").map((entry) => entry.trim()).filter(Boolean);

/** Absolute folders separated by `:` or `,`, resolved. */
function folderList(value: string | undefined, name: string): string[] {
  const roots = (value ?? "").split(/[:,]/).map((entry) => entry.trim()).filter(Boolean);
  for (const root of roots) if (!root.startsWith("/")) throw new Error(`${name} must list absolute folders (separated by : or ,), got '${root}'`);
  return roots.map((root) => resolve(root));
}

/** An http(s) URL's origin, undefined when unset or blank. */
function publicUrl(value: string | undefined, name: string): string | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`${name} must be an absolute URL such as https://strand.example.org, got '${value}'`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`${name} must be an http(s) URL, got '${value}'`);
  return url.origin;
}

/** The platform data directory for strand: `$XDG_DATA_HOME/strand`, else `~/.local/share/strand`. */
export function defaultDataDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith("/") ? env.XDG_DATA_HOME : join(env.HOME || homedir(), ".local", "share");
  return join(base, "strand");
}

/** Failed sign-ins of one account before further attempts wait, by default. */
export const DEFAULT_SIGN_IN_FAILURES = 5;

/** Every environment variable the service reads. */
export const SETTINGS = {
  SERVICE_MODE: setting("listening", "`personal`", "`personal`, `team` or `hpc` (see [Running for a team](../guide/team-and-security.md))", (value) => {
    // Unset means personal; anything else must be a mode exactly (an empty value is a mistake, not a default).
    const mode = value ?? "personal";
    if (!(SERVICE_MODES as readonly string[]).includes(mode)) throw new Error(`SERVICE_MODE must be personal, team or hpc, got '${mode}'`);
    return mode as ServiceMode;
  }),
  SERVICE_HOST: setting("listening", "`127.0.0.1`", "the address to listen on", (value) => value ?? "127.0.0.1"),
  SERVICE_PORT: setting("listening", "`8080`", "the port to listen on", integer(8080)),
  SERVICE_PERSONAL_ANY_ADDRESS: setting("listening", "off", "`1` lets a personal service listen beyond loopback (the container image, whose port is published on the host's loopback)", flag),
  SERVICE_ALLOWED_HOSTS: setting("listening", "none", "personal mode: more host names the service answers to (see [Limits and protections](../guide/service-api.md#limits-and-protections))", commaList),
  SERVICE_BASE_PATH: setting("listening", "`/`", "where the app is mounted behind a proxy; injected into the index page as `<base href>`", raw),
  SERVICE_PUBLIC_URL: setting("listening", "the request's `Host`", "the address users reach the service at; share links and sign-in callbacks name it", publicUrl),

  SERVICE_ADMIN_PASSWORD: setting("accounts", "none", "team and hpc modes: creates the `admin` account at start, or resets its password", (value) => {
    if (value === undefined || value === "") return undefined;
    if ([...value].length < 8) throw new Error("SERVICE_ADMIN_PASSWORD must have at least 8 characters");
    return value;
  }),
  SERVICE_SESSION_HOURS: setting("accounts", "`168`", "a sign-in session ends after this long without use", integer(168, 1)),
  SERVICE_SIGNIN_MAX_FAILURES: setting("accounts", "`5`", "failed sign-ins of one account (four times as many from one address) before further attempts wait (0 = off)", integer(DEFAULT_SIGN_IN_FAILURES)),
  SERVICE_OAUTH_GITHUB_CLIENT_ID: setting("accounts", "none", "the GitHub OAuth app's client id (with its secret; see [Signing in with GitHub or ORCID](../guide/team-and-security.md#signing-in-with-github-or-orcid))", trimmed),
  SERVICE_OAUTH_GITHUB_CLIENT_SECRET: setting("accounts", "none", "the GitHub OAuth app's client secret; both or neither", trimmed),
  SERVICE_OAUTH_GITHUB_BASE_URL: setting("accounts", "`https://github.com`", "another GitHub (Enterprise Server: `https://github.lab.example`)", trimmed),
  SERVICE_OAUTH_GITHUB_API_URL: setting("accounts", "`https://api.github.com`, or `<base>/api/v3` when the base URL is set", "GitHub's API", trimmed),
  SERVICE_OAUTH_ORCID_CLIENT_ID: setting("accounts", "none", "the ORCID client's id (with its secret)", trimmed),
  SERVICE_OAUTH_ORCID_CLIENT_SECRET: setting("accounts", "none", "the ORCID client's secret; both or neither", trimmed),
  SERVICE_OAUTH_ORCID_BASE_URL: setting("accounts", "`https://orcid.org`", "`https://sandbox.orcid.org` to test", trimmed),

  SERVICE_RATE_LIMIT: setting("requests", "`100`", "requests per client in any 60 s window (0 = off; IPv6 clients count per /64 network); over it: 429 `RATE_LIMITED`, `Retry-After`, `detail: \"retry in <N>s\"`", integer(100)),
  SERVICE_TRUSTED_PROXY: setting("requests", "none", "comma-separated proxy addresses whose `X-Forwarded-For` / `X-Real-IP`, `X-Forwarded-Proto` and `X-Request-Id` are believed (the client is the right-most `X-Forwarded-For` entry that is not one of them)", commaList),
  SERVICE_CORS_ORIGINS: setting("requests", "none (same origin only)", "comma-separated origins allowed to call the API, or `*`", (value) => commaList(value).map((origin) => origin.replace(/\/+$/, "")).filter(Boolean)),
  SERVICE_BODY_LIMIT: setting("requests", "10 MiB", "largest request body, bytes", integer(10 * 1024 * 1024, 1)),
  SERVICE_LOG_LEVEL: setting("requests", "`info`", "`fatal`, `error`, `warn`, `info`, `debug` (also logs health checks), `trace` or `silent`; anything else is refused at start", oneOf(LOG_LEVELS, "info", `one of ${LOG_LEVELS.join(", ")}`)),

  SERVICE_USER_MAX_RUNS: setting("limits", "`4` in team and hpc modes, none in personal", "a user's queued, running and paused runs at once (0 = no limit); see [Limits](../guide/team-and-security.md#limits)", integer((mode) => (mode === "personal" ? 0 : 4))),
  SERVICE_USER_MAX_THREADS: setting("limits", "the CPU count in team mode, none in hpc and personal", "the jobs at once (each run's `jobs`, 1 when not given) over a user's active runs (0 = no limit)", integer((mode) => (mode === "team" ? cpuCount() : 0))),
  SERVICE_EVENT_STREAMS_PER_USER: setting("limits", "`8` in team and hpc modes, none in personal", "event streams (`GET /api/events`) one user may hold at once (0 = no limit); see [Limits](../guide/team-and-security.md#limits)", integer((mode) => (mode === "personal" ? 0 : 8))),
  SERVICE_PIPELINE_QUOTA_MB: setting("limits", "`50`", "revision text kept per pipeline", integer(50, 1)),
  SERVICE_USER_QUOTA_MB: setting("limits", "`500`", "revision text kept per owner", integer(500, 1)),
  SERVICE_UPLOAD_LIMIT_MB: setting("limits", "`1024`", "the largest file `POST /api/files` stores (uploads are streamed to disk, not held by `SERVICE_BODY_LIMIT`)", integer(1024, 1)),
  SERVICE_ENGINE_TIMEOUT: setting("limits", "`20`", "seconds one engine task of a request (validate, dag, prepare, …) may take", optionalInteger(1)),
  SERVICE_ENGINE_MEMORY_MB: setting("limits", "`1024`", "heap of each engine worker thread", optionalInteger(64)),
  SERVICE_ENGINE_THREADS: setting("limits", "CPUs, 2 to 8", "engine worker threads (32 waiting tasks each before 503)", optionalInteger(1)),

  SERVICE_DATA_DIR: setting("storage", "`$XDG_DATA_HOME/strand`, else `~/.local/share/strand`", "the embedded database `strand.db`, run workspaces, uploads", (value, _name, { env }) => (value ? resolve(value) : defaultDataDir(env))),
  SERVICE_INSTANCE_ID: setting("storage", "`<host>-<pid>-<random>`", "this process's name among the instances serving one database: in health (`instance_id`, `peers`) and every log line; letters, digits, `.`, `_`, `-`", (value) => {
    const id = value?.trim() ?? "";
    if (id !== "" && !/^[A-Za-z0-9._-]{1,64}$/.test(id)) throw new Error(`SERVICE_INSTANCE_ID must be 1 to 64 letters, digits, '.', '_' or '-', got '${id}'`);
    return id;
  }),
  SERVICE_DATABASE_URL: setting("storage", "none (embedded SQLite)", "`postgres://…` selects PostgreSQL (see [Storage](../guide/operating.md#storage)); any other URL is refused at start", (value) => value?.trim() ?? ""),
  SERVICE_CONFIG_DIR: setting("storage", "`~/.config/strand`", "the license file (see below), and `secret.key` (made on first use, mode 0600) when `SERVICE_SECRET_KEY` is not set", (value) => resolve(value ?? join(homedir(), ".config", "strand"))),
  SERVICE_SECRET_KEY: setting("storage", "none (`secret.key` in the configuration directory)", "32 bytes (base64 or 64 hex digits) that seal stored AI provider keys (AES-256-GCM); changing it makes stored keys unusable until saved again", raw),
  SERVICE_CLUSTERS_FILE: setting("storage", "none", "a TOML file of `[[clusters]]` (the fields of `POST /api/clusters`, a key by `key_path` only) added to the registry at start when their id is free; a bad entry stops the start naming it (see [remote clusters](../guide/hpc.md#remote-clusters))", (value) => (value ? resolve(value) : undefined)),
  SERVICE_LICENSE: setting("storage", "none", "a license file to use before the configuration directory's `license.json` (the license status is informational and never restricts anything: see [the license](../guide/operating.md#the-license))", (value) => value || undefined),
  SERVICE_LICENSE_PUBLIC_KEY: setting("storage", "the vendor's key", "the Ed25519 public key (hex) license signatures are checked against", (value) => value ?? undefined),

  SERVICE_SANDBOX: setting("sandbox", "`auto`", "`auto` (bwrap in team and hpc modes, none in personal), `bwrap` or `off` (see [The job sandbox](../guide/team-and-security.md#the-job-sandbox))", oneOf(SANDBOX_SETTINGS, "auto")),
  SERVICE_DATA_ROOTS: setting("sandbox", "none", "absolute folders (`:` or `,` separated) users may read with the data helpers and jobs may read in the sandbox (see [Bringing your data](../guide/data.md))", folderList),
  SERVICE_REFERENCE_ROOTS: setting("sandbox", "none", "absolute folders (`:` or `,` separated) searched for reference genomes (iGenomes, Ensembl or flat `<genome>/` layouts)", folderList),
  SERVICE_JOB_NETWORK: setting("sandbox", "`none`", "jobs' network: their own empty one (`none`), or the host's (`host`)", oneOf(JOB_NETWORKS, "none", JOB_NETWORKS.join(" or "))),
  SERVICE_JOB_MAX_PROCESSES: setting("sandbox", "`1024`", "processes and threads one sandboxed job may have at once", integer(DEFAULT_JOB_PROCESSES, 16)),
  SERVICE_USER_WORKSPACE_MB: setting("sandbox", "none", "each user's run workspaces together; over it their runs stop and new ones are refused (0 = none)", integer(0)),
  SERVICE_ALLOW_ROOT: setting("sandbox", "off", "`1` lets team and hpc modes start as root (refused otherwise)", flag),
  SERVICE_SANDBOX_USER: setting("sandbox", "`nobody`", "the unprivileged account a root service runs its sandboxes (and so every job) under", (value) => value?.trim() || "nobody"),

  SERVICE_IMPORT_ALLOW_PRIVATE: setting("outbound", "off", "`1` lets imports fetch from loopback and private addresses (tests only)", flag),
  SERVICE_WEBHOOK_ALLOW_PRIVATE: setting("outbound", "off", "`1` lets webhooks of the runs the service starts reach loopback, private and link-local addresses, e.g. a chat relay on the LAN (the service passes `--webhook-targets=any` instead of `public` to their engines; `strand run` on its own is not affected)", flag),

  SERVICE_AI_PROVIDER: setting("ai", "none (`anthropic` when only a key is set)", "the shared AI provider: `anthropic`, `openai`, `deepseek`, `ollama`, or `disabled` (see [AI help](../guide/ai-help.md))", trimmed),
  SERVICE_AI_API_KEY: setting("ai", "none", "the shared provider's API key", raw),
  SERVICE_AI_MODEL: setting("ai", "the provider's default", "the shared provider's model", raw),
  SERVICE_AI_API_URL: setting("ai", "the provider's address", "the shared provider's address (an OpenAI-compatible server, a proxy)", raw),
  SERVICE_AI_TIMEOUT: setting("ai", "`180`", "seconds one AI provider may take for one call before the next in the chain is tried", integer(180, 1)),
  SERVICE_AI_ALLOW_PRIVATE_URLS: setting("ai", "off", "`1` lets users of a team service point their own AI provider at private addresses (checked when saved and at every call)", flag),
  ANTHROPIC_API_KEY: setting("ai", "none", "discovered: Anthropic joins the provider chain with this key", raw),
  ANTHROPIC_BASE_URL: setting("ai", "Anthropic's address", "discovered: where that Anthropic candidate is reached", raw),
  ANTHROPIC_MODEL: setting("ai", "the provider's default", "discovered: that candidate's model", raw),
  OPENAI_API_KEY: setting("ai", "none", "discovered: OpenAI joins the provider chain with this key", raw),
  OPENAI_BASE_URL: setting("ai", "OpenAI's address", "discovered: where that OpenAI candidate is reached", raw),
  OPENAI_MODEL: setting("ai", "the provider's default", "discovered: that candidate's model", raw),
  DEEPSEEK_API_KEY: setting("ai", "none", "discovered: DeepSeek joins the provider chain with this key", raw),
  DEEPSEEK_BASE_URL: setting("ai", "DeepSeek's address", "discovered: where that DeepSeek candidate is reached", raw),
  DEEPSEEK_MODEL: setting("ai", "the provider's default", "discovered: that candidate's model", raw),
  OLLAMA_HOST: setting("ai", "none", "a local Ollama joins the end of the provider chain", raw),
  OLLAMA_MODEL: setting("ai", "the provider's default", "the local runner's model", raw),

  SERVICE_PLUGIN_TRUSTED_KEYS: setting("plugins", "none", "comma-separated Ed25519 public keys (base64, optionally `label:KEY`) whose plugin signatures `/api/plugins/validate` and `strand plugin verify` trust (see [Plugins](../guide/plugins.md))", (value) => value ?? ""),
} as const satisfies Record<string, Setting<unknown>>;

/** The name of an environment variable the service reads. */
export type SettingName = keyof typeof SETTINGS;

/** The value of every setting, by variable name. */
export type Settings = { [Name in SettingName]: ReturnType<(typeof SETTINGS)[Name]["parse"]> };

/** The processor count, read when a default needs it. */
function cpuCount(): number {
  return availableParallelism();
}

/** Reads one setting of `env` (the mode-dependent defaults take `mode`, default the environment's own). */
export function readSetting<Name extends SettingName>(env: NodeJS.ProcessEnv, name: Name, mode?: ServiceMode): Settings[Name] {
  const context: SettingContext = { mode: mode ?? SETTINGS.SERVICE_MODE.parse(env.SERVICE_MODE, "SERVICE_MODE", { mode: "personal", env }), env };
  return SETTINGS[name].parse(env[name], name, context) as Settings[Name];
}

/** Reads every setting; the first invalid value is an Error that names its variable. `mode` overrides SERVICE_MODE. */
export function readSettings(env: NodeJS.ProcessEnv, mode?: ServiceMode): Settings {
  const chosen = mode ?? readSetting(env, "SERVICE_MODE");
  const values: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) values[name] = name === "SERVICE_MODE" ? chosen : readSetting(env, name, chosen);
  return values as Settings;
}

/** The heading and opening sentence of each section of the configuration reference. */
export const SETTING_GROUP_TITLES: { readonly [G in SettingGroup]: { title: string; about: string } } = {
  listening: { title: "Listening", about: "Where the service listens, in which mode, and at which address its users reach it." },
  accounts: { title: "Accounts", about: "Sign-in, sessions and the first administrator (team and hpc modes)." },
  requests: { title: "Requests", about: "What one request may be (rate, size, origin), and what the log records." },
  limits: { title: "Limits", about: "How much work the service takes on, overall and per user." },
  storage: { title: "Storage", about: "Where the service keeps its database, workspaces, license and secret key." },
  sandbox: { title: "Sandbox", about: "The job sandbox of team and hpc modes: what a job may reach and use." },
  outbound: { title: "Outbound", about: "What the service itself may reach on the network." },
  ai: { title: "AI", about: "The AI providers the service asks, in the order they are tried." },
  plugins: { title: "Plugins", about: "Which plugin signatures the service trusts." },
};

/** One section's table of the configuration reference: one row per variable of `group`, in the table's order. */
export function settingsTable(group: SettingGroup): string {
  const lines = ["| variable | default | meaning |", "|---|---|---|"];
  for (const [name, row] of Object.entries(SETTINGS) as [SettingName, Setting<unknown>][]) {
    if (row.group === group) lines.push(`| \`${name}\` | ${row.shown} | ${row.meaning} |`);
  }
  return lines.join("\n");
}

/** Every variable the table holds, in its order. */
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** A variable the AI provider chain is configured from: the shared provider, then the ones discovered by their own keys. */
export type AiVariable = Extract<SettingName, `SERVICE_AI_${"PROVIDER" | "API_KEY" | "MODEL" | "API_URL"}` | `${"ANTHROPIC" | "OPENAI" | "DEEPSEEK" | "OLLAMA"}_${string}`>;

/** The AI provider chain's variables, as rows of the table. */
export const AI_VARIABLES = SETTING_NAMES.filter((name): name is AiVariable => /^(SERVICE_AI_(PROVIDER|API_KEY|MODEL|API_URL)|(ANTHROPIC|OPENAI|DEEPSEEK|OLLAMA)_[A-Z_]+)$/.test(name));

/** The AI provider settings of the environment, by variable (absent: unset). */
export type AiEnvironment = Partial<Record<AiVariable, string>>;

/** A variable sign-in with GitHub and ORCID is configured from (the callback needs the public address too). */
export type OAuthVariable = Extract<SettingName, `SERVICE_OAUTH_${string}` | "SERVICE_PUBLIC_URL">;

/** The OAuth variables, as rows of the table. */
export const OAUTH_VARIABLES = SETTING_NAMES.filter((name): name is OAuthVariable => name.startsWith("SERVICE_OAUTH_") || name === "SERVICE_PUBLIC_URL");

/** The OAuth settings of the environment, by variable (absent: unset). */
export type OAuthEnvironment = Partial<Record<OAuthVariable, string>>;

/** The text values of `names` among parsed settings, without the unset ones. */
export function textValues<Name extends SettingName>(settings: Pick<Settings, Name>, names: readonly Name[]): Partial<Record<Name, string>> {
  const picked: Partial<Record<Name, string>> = {};
  for (const name of names) {
    const value: unknown = settings[name];
    if (typeof value === "string") picked[name] = value;
  }
  return picked;
}

/** The settings `names` read from `env` (only these rows are parsed). */
function readSome<Name extends SettingName>(env: NodeJS.ProcessEnv, names: readonly Name[]): Pick<Settings, Name> {
  return Object.fromEntries(names.map((name) => [name, readSetting(env, name, "personal")])) as Pick<Settings, Name>;
}

/** The text settings `names` read from `env` (only these rows are parsed), without the unset ones. */
export function textSettings<Name extends SettingName>(env: NodeJS.ProcessEnv, names: readonly Name[]): Partial<Record<Name, string>> {
  return textValues(readSome(env, names), names);
}

/** Where the license is looked for and what checks it, from parsed settings. */
export function licensePlacesOf(settings: Pick<Settings, "SERVICE_LICENSE" | "SERVICE_CONFIG_DIR" | "SERVICE_LICENSE_PUBLIC_KEY">): LicensePlaces {
  return { file: settings.SERVICE_LICENSE, configDir: settings.SERVICE_CONFIG_DIR, publicKey: settings.SERVICE_LICENSE_PUBLIC_KEY };
}

/** Where the license is looked for and what checks it, from SERVICE_LICENSE, SERVICE_CONFIG_DIR and SERVICE_LICENSE_PUBLIC_KEY. */
export function licensePlacesFrom(env: NodeJS.ProcessEnv): LicensePlaces {
  return licensePlacesOf(readSome(env, ["SERVICE_LICENSE", "SERVICE_CONFIG_DIR", "SERVICE_LICENSE_PUBLIC_KEY"]));
}
