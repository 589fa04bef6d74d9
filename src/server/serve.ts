/**
 * Starts the service on `@hono/node-server` and stops it cleanly on SIGINT/SIGTERM.
 */
import { serve, type ServerType } from "@hono/node-server";
import { createApp, prepareAccounts } from "./app.js";
import type { ServiceConfig } from "./config.js";
import { createLogger } from "./logger.js";
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
    runner: { sandbox },
    quota: config.quota,
    sessionTtlMs: config.sessionTtlMs,
    userLimits: config.userLimits,
    signInFailures: config.signInFailures,
    oauth: config.oauth,
  });
  let sweep: NodeJS.Timeout | undefined;
  if (config.mode !== "personal") {
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
    const server: ServerType = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, (info) => {
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
