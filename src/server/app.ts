/**
 * The HTTP service: a Hono app with the middleware chain in the specified order (outermost first:
 * compression, request tracing, CORS, rate limit, security headers, license headers), then one router per
 * domain built from `@hono/zod-openapi` route definitions, the OpenAPI 3.1 document, and the error body
 * for every failure (bad JSON, schema failures, unknown paths, wrong methods, oversized bodies).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { docsAsset, docsPage } from "./api-docs.js";
import { completeDocument } from "./openapi-document.js";
import { failureResponse, jsonResponse } from "./openapi-shapes.js";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { methodNotAllowed } from "hono/method-not-allowed";
import { aiDomain, type AiKnowledge } from "./domains/ai/domain.js";
import { authDomain, type AuthService } from "./domains/auth/domain.js";
import { chatDomain } from "./domains/chat/domain.js";
import { clusterDomain, type SchedulerReaderOptions } from "./domains/cluster/domain.js";
import { remoteClusterDomain, type ClusterRegistry } from "./domains/remote-clusters/domain.js";
import { collaborationDomain, type RemoteFetchOptions } from "./domains/collaboration/domain.js";
import { dagDomain } from "./domains/dag/domain.js";
import { dataDomain } from "./domains/data/domain.js";
import { executionDomain } from "./domains/execution/domain.js";
import { licenseDomain } from "./domains/license/domain.js";
import { observabilityDomain, serviceMetrics } from "./domains/observability/domain.js";
import type { InstanceView } from "./domains/observability/domain.js";
import { instanceId } from "./instance-registry.js";
import { pipelinesDomain } from "./domains/pipelines/domain.js";
import { pluginsDomain } from "./domains/plugins/domain.js";
import { templatesDomain } from "./domains/templates/domain.js";
import { TOOLING_NAMES, workflowDomain } from "./domains/workflow/domain.js";
import type { DomainMount } from "./domain-mount.js";
import type { RunSupervisor, SupervisorOptions } from "./runner/supervisor.js";
import type { RemoteClusters } from "./runner/remote/remote-engine.js";

// Account administration outside the request path: the first administrator at start (serve.ts) and `strand user`.
export { AuthService, prepareAccounts } from "./domains/auth/domain.js";
export { ClusterRegistry, clusterChange, declareClusters, type ClusterProbe, type ClusterView } from "./domains/remote-clusters/domain.js";
import { EventBus } from "./events/event-bus.js";
import { eventRoutes } from "./events/routes.js";
import { LiveStreams } from "./events/live-streams.js";
import { auditTrail } from "./middleware/audit.js";
import { authentication } from "./middleware/authentication.js";

import { ApiRoutes } from "./api-routes.js";
import { aiReaderFor } from "./ai-capabilities.js";
import type { AddressLookup } from "../engine/public-address.js";
import { errorResponse, ServiceError } from "./errors.js";
import { callerOf } from "./caller.js";
import { PathPrivacy } from "./path-privacy.js";
import { compression } from "./middleware/compression.js";
import { corsPolicy } from "./middleware/cors.js";
import { applyLicenseHeaders, licenseHeaders } from "./middleware/license-headers.js";
import { clientAddress, rateLimit, transportPeer } from "./middleware/rate-limit.js";
import { applySecurityHeaders, securityHeaders, servedOverHttps } from "./middleware/security-headers.js";
import { tracing } from "./middleware/tracing.js";
import { createLogger, type Logger } from "./logger.js";
import { describeSandbox } from "./runner/sandbox.js";
import { configureEnginePool } from "./engine-pool.js";
import { hostCheck } from "./middleware/host-check.js";
import { urlCheck } from "./middleware/url-check.js";
import { originCheck } from "./middleware/origin-check.js";
import { normaliseBasePath, PUBLIC_FILES, StaticContent } from "./static-content.js";
import { withCachedListing } from "./store/pipelines/cached-listing.js";
import type { Store } from "./store/store.js";
import type { ServiceConfig } from "./config.js";
import { AI_VARIABLES, licensePlacesFrom, readSetting, textSettings } from "./settings.js";

export type { ServiceMode } from "./settings.js";

/**
 * The settings createApp takes, under the names (and with the meaning) ServiceConfig gives them, so
 * `strand serve` passes its configuration as it is; those about listening, starting and the sandbox's set-up
 * are the caller's.
 */
type AppSettings = Omit<ServiceConfig, "host" | "port" | "adminPassword" | "allowRoot" | "sandbox" | "sandboxUser" | "jobNetwork" | "jobMaxProcesses" | "databaseUrl" | "workspaceQuotaBytes">;

/**
 * What createApp needs: the store and the version, any settings (each one not given is read from `env`
 * through the settings table, else takes its default), and hooks for embedding and tests.
 */
export interface AppOptions extends Partial<AppSettings> {
  version: string;
  /** Where pipelines, templates, the audit log and runs are kept (opened and migrated by the caller). */
  store: Store;
  /** How imports fetch remote pipelines besides `importAllowPrivate` (tests add a CA and shorter time-outs). */
  importFetch?: RemoteFetchOptions;
  /** Where the service logs (default: JSON on stdout at `SERVICE_LOG_LEVEL`). */
  logger?: Logger;
  /** This process among the instances serving the store (serve.ts registers it; default: an id made now, no peers). */
  instance?: InstanceView;
  /** The environment the settings not given here are read from, through the settings table (default: the process's). */
  env?: NodeJS.ProcessEnv;
  /** The built browser app (default `dist/web` of the package). */
  webRoot?: string;
  /** The bus behind GET /api/events (default: a new one). */
  events?: EventBus;
  /** Keep-alive interval of GET /api/events (default 15 s). */
  eventPingMs?: number;
  /** How often an open event stream's credential and role are checked again (default 30 s; tests shorten it). */
  eventRecheckMs?: number;
  /** Run supervision settings (tests shorten the sampling interval and the cancel grace, and remote runs' polls and backoff). */
  runner?: Partial<Omit<SupervisorOptions, "store" | "events" | "remote">> & { remote?: Omit<RemoteClusters, "store" | "sealer"> };
  /** How GET /api/hpc reads the scheduler in hpc mode (tests give a PATH and shorter time-outs). */
  scheduler?: SchedulerReaderOptions;
  /** How long a sign-in may take at the identity provider (default 10 minutes; tests shorten it). */
  oauthStateTtlMs?: number;
  /** The knowledge the AI is given (default: the bundled one). */
  aiKnowledge?: AiKnowledge;
  /** How AI provider hosts are resolved when saved and when called (default: the system resolver; tests rebind names). */
  aiProviderLookup?: AddressLookup;
  /** The home folder a personal service without data roots lets its user read (default: the process's home). */
  homeDir?: string;
}

// dist/web from src/server (tests, tsx) and dist/server alike: both are two levels below the package root.
const DEFAULT_WEB_ROOT = fileURLToPath(new URL("../../dist/web/", import.meta.url));

/** What the OpenAPI document says of the service as a whole. */
const API_DESCRIPTION = [
  "Control plane for bioinformatics pipelines written as TOML: check, save, share and run pipelines, follow runs live and find out why jobs failed.",
  "Every failure answers with the error body {code, message, detail?, suggestion?}. In personal mode no credentials are needed;",
  "in team and hpc modes every operation but the public ones needs a bearer token or the session cookie. Interactive documentation: /api/docs.",
].join(" ");

/** The tags of the document, in the order readers meet them. */
const API_TAGS = [
  { name: "auth", description: "sign-in, sessions, personal access tokens and accounts (team and hpc modes)" },
  { name: "pipeline tooling", description: "stateless checks and transformations of pipeline text" },
  { name: "pipelines", description: "saved pipelines, revisions and search" },
  { name: "collaboration", description: "forks, share links and imports" },
  { name: "templates", description: "built-in and user templates" },
  { name: "data", description: "your data: analysis, perception, sample sheets, reference genomes and uploads (only inside your data folders)" },
  { name: "runs", description: "runs, their views and their control" },
  { name: "events", description: "the live event stream" },
  { name: "observability", description: "health, system, metrics and the audit log" },
  { name: "clusters", description: "the registry of remote clusters reached over SSH" },
  { name: "license", description: "license status" },
  { name: "plugins", description: "plugin manifests and their Ed25519 signatures" },
  { name: "ai", description: "AI drafting, explanation and provider settings (every result is a proposal)" },
  { name: "chat", description: "the AI copilot: streamed replies, read-only tools, your sessions and their messages" },
  { name: "cluster", description: "the local scheduler's partitions, nodes and jobs (hpc mode)" },
  { name: "api", description: "this API's description and documentation" },
];

const OPENAPI_ROUTE = createRoute({
  method: "get",
  path: "/api/openapi.json",
  operationId: "getOpenApiDocument",
  tags: ["api"],
  summary: "This OpenAPI 3.1 document",
  responses: { 200: jsonResponse(z.record(z.string(), z.unknown()), "the document") },
});

const DOCS_ROUTE = createRoute({
  method: "get",
  path: "/api/docs",
  operationId: "getApiDocs",
  tags: ["api"],
  summary: "Interactive documentation of this API (Swagger UI)",
  responses: { 200: { description: "an HTML page", content: { "text/html": { schema: z.string() } } } },
});

const DOCS_ASSET_ROUTE = createRoute({
  method: "get",
  path: "/api/docs/assets/{version}/{name}",
  operationId: "getApiDocsAsset",
  tags: ["api"],
  summary: "A script or style sheet of the documentation page (cached for good: the path holds the version)",
  request: {
    params: z.object({
      version: z.string().max(32).openapi({ param: { name: "version", in: "path" } }),
      name: z.string().max(64).openapi({ param: { name: "name", in: "path" } }),
    }),
  },
  responses: {
    200: { description: "the file", content: { "text/javascript": { schema: z.string() }, "text/css": { schema: z.string() } } },
    404: failureResponse("no such asset"),
  },
});

/** The middleware chain, outermost first; a test asserts this order. */
export const MIDDLEWARE_ORDER = ["compression", "tracing", "cors", "rate-limit", "security-headers", "license-headers"] as const;

export interface ServiceApp {
  app: OpenAPIHono;
  /** The names of the middleware as installed, outermost first. */
  middleware: string[];
  /** The run supervisor (close it when the service stops; engines keep running). */
  supervisor: RunSupervisor;
  /** Settles once runs left by a previous service process are started, re-attached or finished. */
  recovered: Promise<void>;
  /** The store as the app uses it (pipeline listings cached); write through it so listings see the change at once. */
  store: Store;
  /** Sign-in and accounts (the first administrator is made through it at start). */
  auth: AuthService;
  /** The registry of remote clusters (the clusters of SERVICE_CLUSTERS_FILE are added through it at start). */
  clusters: ClusterRegistry;
}

/** POST paths that change nothing: the tooling and search (not audited). */
const STATELESS_POSTS = new RegExp(`^/api/pipelines/(${[...TOOLING_NAMES, "search"].join("|")})$`);

/** Builds the service app. */
export function createApp(options: AppOptions): ServiceApp {
  const mode = options.mode ?? "personal";
  const store = withCachedListing(options.store);
  // Settings not given are read from the environment through the one table (settings.ts), never directly.
  const env = options.env ?? process.env;
  const configDir = options.configDir ?? readSetting(env, "SERVICE_CONFIG_DIR", mode);
  const logger = options.logger ?? createLogger({ level: options.logLevel ?? readSetting(env, "SERVICE_LOG_LEVEL", mode) });
  // The router matches each API path in its one canonical spelling, and access is decided on the route it matched.
  const routes = new ApiRoutes(() => app);
  const app: OpenAPIHono = new OpenAPIHono({
    getPath: (request) => routes.routingPath(request),
    // Schema failures become 400 BAD_REQUEST naming the fields, in the error body like every failure.
    defaultHook: (result) => {
      if (result.success) return;
      const fields = result.error.issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`);
      throw new ServiceError("BAD_REQUEST", "the request does not match the expected shape", { detail: fields.join("; ") });
    },
  });
  const events = options.events ?? new EventBus();
  // Server paths in answers are for administrators: one rule for every domain (path-privacy.ts).
  const privacy = new PathPrivacy({ dataDir: options.dataDir || runsFallbackDir(), configDir, shared: options.dataRoots });
  const prometheus = serviceMetrics({ store, events });
  const chain: [string, MiddlewareHandler][] = [
    ["compression", compression()],
    ["tracing", tracing({ logger, trustedProxies: options.trustedProxies, onRequest: (record) => prometheus.recordRequest(record) })],
    ["cors", corsPolicy(options.corsOrigins ?? [])],
    ["rate-limit", rateLimit({ limit: options.rateLimit ?? 100, trustedProxies: options.trustedProxies })],
    ["security-headers", securityHeaders(options.trustedProxies)],
    ["license-headers", licenseHeaders(options.version)],
  ];
  for (const [, handler] of chain) app.use("*", handler);
  app.use("*", urlCheck());
  // A personal service has no sign-in: refuse names a rebinding page would send (team mode has sessions).
  if (mode === "personal") app.use("*", hostCheck([...(options.allowedHosts ?? []), options.publicUrl ? new URL(options.publicUrl).host : undefined]));
  // A shared service's checks do not look at its machine's files: they would tell users which exist.
  configureEnginePool({ ...options.engine, hostPaths: mode === "personal" });
  const maxBody = options.bodyLimit ?? 10 * 1024 * 1024;
  const limitBody = bodyLimit({
    maxSize: maxBody,
    onError: () => {
      throw new ServiceError("PAYLOAD_TOO_LARGE", `request body over ${Math.round(maxBody / 1024)} KiB`, {
        suggestion: "send a smaller body (SERVICE_BODY_LIMIT sets the cap)",
      });
    },
  });
  const trusted = options.trustedProxies ?? [];
  // The audit trail wraps authentication, so refused requests are recorded too.
  app.use("/api/*", auditTrail({ store, stateless: STATELESS_POSTS, clientAddress: (c) => clientAddress(c, transportPeer(c), trusted) }));
  const https = (c: Context) => servedOverHttps(c, trusted);
  const accounts = authDomain({
    store,
    mode,
    logger,
    https,
    clientAddress: (c) => clientAddress(c, transportPeer(c), trusted) ?? null,
    sessionTtlMs: options.sessionTtlMs,
    signInFailures: options.signInFailures,
    oauth: options.oauth,
    oauthStateTtlMs: options.oauthStateTtlMs,
    publicUrl: options.publicUrl,
    basePath: normaliseBasePath(options.basePath),
  });
  const { auth } = accounts;
  // Inside the audit trail (a forged request is recorded as denied), before sign-in and every handler; personal mode too.
  app.use("/api/*", originCheck({ publicUrl: options.publicUrl, corsOrigins: options.corsOrigins, https }));
  app.use("*", authentication({ mode, auth, routes, https }));
  // Requests without a body skip the check: looking for a body makes the adapter build a full Request.
  // Uploads are exempt on purpose: they are streamed to disk and counted by their own limit
  // (SERVICE_UPLOAD_LIMIT_MB, domains/data/uploads.ts); this cap is for bodies read whole into memory.
  app.use("/api/*", (c, next) => (c.req.method === "GET" || c.req.method === "HEAD" || (c.req.method === "POST" && c.req.path === "/api/files") ? next() : limitBody(c, next)));
  app.use(
    "/api/*",
    methodNotAllowed({
      app,
      onMethodNotAllowed: (_c, methods) => {
        throw new ServiceError("METHOD_NOT_ALLOWED", `this path answers ${methods.join(", ")} only`, { headers: { Allow: methods.join(", ") } });
      },
    }),
  );

  const startedAt = Date.now();
  const defaultInstanceId = options.instance ? "" : instanceId();
  let requestsTotal = 0;
  app.use("/api/*", async (_c, next) => {
    requestsTotal++;
    await next();
  });

  const dataDir = options.dataDir || runsFallbackDir();
  const log = (line: string) => logger.info(line);
  const streams = new LiveStreams({ perUser: options.eventStreamsPerUser ?? (mode === "personal" ? 0 : 8), recheckMs: options.eventRecheckMs, authority: mode === "personal" ? undefined : auth });
  const remoteClusters = remoteClusterDomain({ store, secretKey: options.secretKey ?? readSetting(env, "SERVICE_SECRET_KEY", mode), configDir });
  const execution = executionDomain({
    store,
    events,
    dataDir,
    privacy,
    userLimits: options.userLimits,
    log,
    clusters: remoteClusters.registry,
    runner: { webhooksAllowPrivate: options.webhookAllowPrivate, ...options.runner, remote: { store, sealer: remoteClusters.sealer, ...options.runner?.remote } },
  });
  const { supervisor } = execution;
  const ai = aiDomain({
    store,
    mode,
    ai: options.ai ?? textSettings(env, AI_VARIABLES),
    allowPrivateUrls: options.aiAllowPrivateUrls ?? readSetting(env, "SERVICE_AI_ALLOW_PRIVATE_URLS", mode),
    secretKey: options.secretKey ?? readSetting(env, "SERVICE_SECRET_KEY", mode),
    configDir,
    // The AI reads through the same paths as the API, with a store that offers it reads only (ai-capabilities.ts).
    readerFor: (caller) => aiReaderFor({ ...execution.context, store }, caller),
    callTimeoutMs: options.aiTimeoutMs,
    knowledge: options.aiKnowledge,
    lookup: options.aiProviderLookup,
    observe: (record) => {
      prometheus.recordAiCall(record);
      logger.info({ ai: record }, `AI ${record.task} call to ${record.provider} (${record.model}): ${record.outcome}, ${record.input_tokens}+${record.output_tokens} tokens, ${record.latency_ms} ms`);
    },
  });
  const license = licenseDomain({ places: options.license ?? licensePlacesFrom(env) });

  // Every domain, in the order its routes are mounted.
  const mounts: DomainMount[] = [
    accounts,
    workflowDomain(),
    pipelinesDomain({ store, quota: options.quota }),
    dagDomain({ store }),
    collaborationDomain({ store, publicUrl: options.publicUrl, fetch: { allowPrivate: options.importAllowPrivate, ...options.importFetch }, quota: options.quota }),
    templatesDomain({ store }),
    dataDomain({ dataDir, dataRoots: options.dataRoots ?? [], personal: mode === "personal", home: options.homeDir, referenceRoots: options.referenceRoots ?? [], uploadLimitBytes: options.uploadLimitBytes ?? 1024 * 1024 * 1024 }),
    { routers: [eventRoutes(events, { pingIntervalMs: options.eventPingMs, mayRead: (caller, owner) => caller.admin || caller.id === owner, streams })] },
    execution,
    ai,
    // The copilot: the model reads through the AI's context; the chat domain writes only its own history.
    chatDomain({ ai: ai.context, history: store }),
    license,
    pluginsDomain({ version: options.version, trustedKeys: options.pluginTrustedKeys ?? readSetting(env, "SERVICE_PLUGIN_TRUSTED_KEYS", mode) }),
    clusterDomain({ hpc: mode === "hpc", scheduler: options.scheduler, store }),
    remoteClusters,
    observabilityDomain(
      {
        version: options.version,
        mode,
        startedAt,
        store,
        dataDir: options.dataDir ?? "",
        privacy,
        sandbox: () => describeSandbox(supervisor.sandboxPolicy()),
        prometheus,
        license: () => license.status(),
        aiProvider: () => ai.firstProvider(),
        engine: () => ({ ...supervisor.engineAvailability(), ...supervisor.counts() }),
        instance: options.instance ?? { id: defaultInstanceId, peers: () => [] },
      },
      { requestsTotal: () => requestsTotal, activeRuns: () => supervisor.counts().active, queuedRuns: () => supervisor.counts().queued, sseSubscribers: () => events.subscriberCount },
    ),
  ];
  for (const mount of mounts) for (const router of mount.routers) app.route("/", router);
  const recovered = execution.recovered;

  let openapi: string | undefined;
  app.openapi(OPENAPI_ROUTE, (c) => {
    // Serialized once per process: the routes do not change while it runs.
    openapi ??= JSON.stringify(
      completeDocument(
        app.getOpenAPI31Document({
          openapi: "3.1.0",
          info: { title: "strand service", version: options.version, description: API_DESCRIPTION },
          tags: API_TAGS,
        }),
      ),
    );
    return c.body(openapi, 200, { "Content-Type": "application/json; charset=utf-8" }) as never;
  });
  app.openapi(DOCS_ROUTE, (c) => c.html(docsPage("strand service"), 200, { "Cache-Control": "no-cache" }) as never);
  app.openapi(DOCS_ASSET_ROUTE, (c) => {
    const { version, name } = c.req.valid("param");
    const asset = docsAsset(version, name);
    if (!asset) throw new ServiceError("NOT_FOUND", "no such documentation asset", { suggestion: "open /api/docs" });
    return c.body(asset.text, 200, { "Content-Type": asset.type, "Cache-Control": "public, max-age=31536000, immutable" }) as never;
  });

  const content = new StaticContent(options.webRoot ?? DEFAULT_WEB_ROOT, normaliseBasePath(options.basePath));
  app.use("/assets/*", ...content.assetHandlers());
  for (const name of PUBLIC_FILES) app.use(`/${name}`, ...content.publicFileHandlers());
  app.get("/assets/*", (c) => {
    throw new ServiceError("NOT_FOUND", `no such asset: ${c.req.path}`);
  });

  app.notFound((c) => {
    const path = c.req.path;
    // Returned, not thrown: the method check looks at 404 answers to tell a wrong method from a wrong path.
    if (path.startsWith("/api")) return errorResponse(c, new ServiceError("NOT_FOUND", `no such endpoint: ${c.req.method} ${path}`, { suggestion: "GET /api/openapi.json lists every endpoint" }), logger);
    // no-cache: revalidated each time, which costs a 304 while the build is the same.
    const headers = { "Cache-Control": "no-cache", ETag: content.indexEtag() };
    if ((c.req.method === "GET" || c.req.method === "HEAD") && content.indexUnchanged(c.req.header("If-None-Match"))) return c.body(null, 304, headers);
    return c.html(content.indexPage(), 200, headers);
  });
  app.onError((error, c) => {
    const mapped = error instanceof HTTPException && !(error instanceof ServiceError) ? httpExceptionError(error) : error;
    // An error message may quote a server path (a file that is missing, say): only administrators see it.
    const response = errorResponse(c, mapped, logger, (body) => privacy.forCaller(callerOf(c), body));
    // Middleware inside the one that failed did not run: the headers every response carries are set here.
    applySecurityHeaders(response.headers, servedOverHttps(c, options.trustedProxies ?? []));
    applyLicenseHeaders(response.headers, options.version);
    return response;
  });
  return { app, middleware: chain.map(([name]) => name), supervisor, recovered, store, auth, clusters: remoteClusters.registry };
}


let fallbackRunsDir: string | undefined;

/** Where runs go when no data directory was given (an embedding or a test): a folder made once per process. */
function runsFallbackDir(): string {
  fallbackRunsDir ??= mkdtempSync(join(tmpdir(), "strand-data-"));
  return fallbackRunsDir;
}

/** Hono's own exceptions (malformed JSON in a validator, …) as service errors. */
function httpExceptionError(error: HTTPException): ServiceError {
  if (error.status === 415) return new ServiceError("UNSUPPORTED_MEDIA_TYPE", "the body must be JSON", { suggestion: "send the header Content-Type: application/json" });
  if (error.status === 400) return new ServiceError("BAD_REQUEST", error.message || "malformed request", { suggestion: "send a JSON body with Content-Type: application/json" });
  if (error.status === 413) return new ServiceError("PAYLOAD_TOO_LARGE", error.message || "request body too large");
  return new ServiceError(error.status === 401 ? "AUTH_REQUIRED" : "BAD_REQUEST", error.message || "bad request");
}
