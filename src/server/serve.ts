/**
 * Starts the service on `@hono/node-server` and stops it cleanly on SIGINT/SIGTERM.
 */
import { chmodSync, mkdirSync, statSync } from "node:fs";
import type { ServerType } from "@hono/node-server";
import { serveApp } from "./adapter-requests.js";
import { createApp, prepareAccounts } from "./app.js";
import type { ServiceConfig } from "./config.js";
import { createLogger, type Logger } from "./logger.js";
import { openStore } from "./store/open-store.js";
import { resolveSandbox } from "./runner/sandbox.js";

export interface RunningService {
  url: string;
  port: number;
  /** `sqlite` or `postgres`. */
  storage: string;
  close(): Promise<void>;
}

/** Opens (and migrates) the store, then listens on the configured address; resolves once the port is bound. */
export async function startService(config: ServiceConfig, version: string): Promise<RunningService> {
  // Before anything is opened: team and hpc modes do not start without a job sandbox (unless it is turned off).
  const sandbox = resolveSandbox({ mode: config.mode, setting: config.sandbox, dataDir: config.dataDir, configDir: config.configDir, dataRoots: config.dataRoots });
  const store = await openStore({ url: config.databaseUrl, dataDir: config.dataDir });
  const logger = createLogger({ level: config.logLevel });
  const { app, supervisor, auth } = createApp({
    logger,
    version,
    store,
    dataDir: config.dataDir,
    publicUrl: config.publicUrl,
    importFetch: { allowPrivate: config.importAllowPrivate },
    mode: config.mode,
    rateLimit: config.rateLimit,
    trustedProxies: config.trustedProxies,
    corsOrigins: config.corsOrigins,
    bodyLimit: config.bodyLimit,
    basePath: config.basePath,
    allowedHosts: [config.host, ...config.allowedHosts],
    engine: config.engine,
    runner: { sandbox, webhooksAllowPrivate: config.webhookAllowPrivate },
    quota: config.quota,
    sessionTtlMs: config.sessionTtlMs,
    userLimits: config.userLimits,
    signInFailures: config.signInFailures,
    eventStreamsPerUser: config.eventStreamsPerUser,
    oauth: config.oauth,
    configDir: config.configDir,
    aiTimeoutMs: config.aiTimeoutMs,
    dataRoots: config.dataRoots,
    referenceRoots: config.referenceRoots,
    uploadLimitBytes: config.uploadLimitBytes,
  });
  let sweep: NodeJS.Timeout | undefined;
  if (config.mode !== "personal") {
    guardSharedHost(config.dataDir, logger);
    try {
      sweep = await prepareAccounts(auth, config.adminPassword, logger);
    } catch (error) {
      supervisor.close();
      await store.close();
      throw error;
    }
  }
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      void store.close();
      reject(error);
    };
    const server: ServerType = serveApp(app.fetch, { hostname: config.host, port: config.port }, (info) => {
      server.off("error", onError);
      const host = config.host.includes(":") ? `[${config.host}]` : config.host;
      logger.info({ url: `http://${host}:${info.port}`, mode: config.mode, storage: store.kind, version }, "service started");
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        storage: store.kind,
        close: () =>
          new Promise<void>((done) => {
            // Engines keep running (the next start re-attaches to them); event streams are ended.
            clearInterval(sweep);
            supervisor.close();
            server.close(() => done());
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          })
            .then(() => store.close())
            .then(() => logger.info("service stopped"))
            .finally(() => logger.flush()),
      });
    });
    server.once("error", onError);
  });
}

/**
 * A shared service's host: the data folder (the database, every user's runs) closed to other local
 * accounts — on a login node they could otherwise read password hashes and results — and a warning when the
 * service runs as root, since jobs keep its user id inside the sandbox and on scheduler nodes.
 */
function guardSharedHost(dataDir: string, logger: Logger): void {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if ((statSync(dataDir).mode & 0o077) !== 0) {
      chmodSync(dataDir, 0o700);
      logger.info("the data folder is now readable by the service's account only (mode 700)");
    }
  } catch (error) {
    logger.warn({ err: error }, "could not make the data folder private to the service's account; other local accounts may read it");
  }
  if (process.getuid?.() === 0) {
    logger.warn("the service runs as root: jobs keep its user id inside the sandbox and on scheduler nodes; run it under an account of its own");
  }
}
