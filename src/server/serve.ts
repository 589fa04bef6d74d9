/**
 * Starts the service on `@hono/node-server` and stops it cleanly on SIGINT/SIGTERM.
 */
import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ServerType } from "@hono/node-server";
import { serveApp } from "./adapter-requests.js";
import { createApp, declareClusters, prepareAccounts } from "./app.js";
import type { ServiceConfig } from "./config.js";
import { createLogger, type Logger } from "./logger.js";
import { InstanceRegistry, instanceId, SoleInstanceError } from "./instance-registry.js";
import { openStore } from "./store/open-store.js";
import { resolveSandbox } from "./runner/sandbox.js";

export interface RunningService {
  url: string;
  port: number;
  /** `sqlite` or `postgres`. */
  storage: string;
  /** This process among the instances serving the database (health's `instance_id`). */
  instanceId: string;
  close(): Promise<void>;
}

/** Opens (and migrates) the store, then listens on the configured address; resolves once the port is bound. */
export async function startService(config: ServiceConfig, version: string): Promise<RunningService> {
  // Before anything is opened: a shared service does not run as root unless told it may, and team and hpc
  // modes do not start without a job sandbox (unless it is turned off).
  refuseRoot(config);
  const sandbox = resolveSandbox({
    mode: config.mode,
    setting: config.sandbox,
    dataDir: config.dataDir,
    configDir: config.configDir,
    dataRoots: config.dataRoots,
    databaseUrl: config.databaseUrl,
    jobNetwork: config.jobNetwork,
    sandboxUser: config.sandboxUser,
    limits: { processes: config.jobMaxProcesses, workspaceQuotaBytes: config.workspaceQuotaBytes },
  });
  const store = await openStore({ url: config.databaseUrl, dataDir: config.dataDir });
  const id = instanceId(config.instanceId || undefined);
  const logger = createLogger({ level: config.logLevel, instanceId: id });
  // Registered before anything touches a run: on SQLite a second instance stops here.
  const instance = new InstanceRegistry(store, id, version, { storage: store.kind, where: config.dataDir, log: (message) => logger.warn(message) });
  try {
    await instance.start();
  } catch (error) {
    await store.close();
    if (error instanceof SoleInstanceError) throw new StartRefusedError(error.problem, error.suggestion);
    throw error;
  }
  // The configuration as it is (createApp takes ServiceConfig's names), with what only the start knows.
  const { app, supervisor, auth, clusters } = createApp({
    ...config,
    env: {},
    logger,
    version,
    store,
    instance,
    allowedHosts: [config.host, ...config.allowedHosts],
    runner: { sandbox, workspaceQuota: { bytes: config.workspaceQuotaBytes, dataDir: config.dataDir } },
  });
  if (config.clustersFile) {
    try {
      const declared = await declareClusters(clusters, config.clustersFile);
      logger.info({ added: declared.added, kept: declared.kept }, `clusters of ${config.clustersFile}: ${declared.added.length} added, ${declared.kept.length} already in the registry`);
    } catch (error) {
      supervisor.close();
      await instance.stop();
      await store.close();
      throw new StartRefusedError((error as Error).message, "fix the entry, or unset SERVICE_CLUSTERS_FILE to start without the file");
    }
  }
  let sweep: NodeJS.Timeout | undefined;
  if (config.mode !== "personal") {
    guardSharedHost(config.dataDir, logger, sandbox?.account !== undefined);
    try {
      sweep = await prepareAccounts(auth, config.adminPassword, logger);
    } catch (error) {
      supervisor.close();
      await instance.stop();
      await store.close();
      throw error;
    }
  }
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      void instance.stop().then(() => store.close());
      reject(error);
    };
    const server: ServerType = serveApp(app.fetch, { hostname: config.host, port: config.port }, (info) => {
      server.off("error", onError);
      const host = config.host.includes(":") ? `[${config.host}]` : config.host;
      logger.info({ url: `http://${host}:${info.port}`, mode: config.mode, storage: store.kind, version, peers: instance.peers().filter((peer) => peer.alive).length }, "service started");
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        storage: store.kind,
        instanceId: id,
        close: () =>
          new Promise<void>((done) => {
            // Engines keep running (the next start re-attaches to them); event streams are ended.
            clearInterval(sweep);
            supervisor.close();
            server.close(() => done());
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          })
            .then(() => instance.stop())
            .then(() => store.close())
            .then(() => logger.info("service stopped"))
            .finally(() => logger.flush()),
      });
    });
    server.once("error", onError);
  });
}

/** Thrown when a shared service is started as root without SERVICE_ALLOW_ROOT=1; `suggestion` says what to do. */
/** A start the service refuses, with what to change (the command line shows both). */
export class StartRefusedError extends Error {
  constructor(
    readonly problem: string,
    readonly suggestion: string,
  ) {
    super(`${problem}; ${suggestion}`);
  }
}

/** A shared service started as root without SERVICE_ALLOW_ROOT. */
export class RootRefusedError extends StartRefusedError {}

/**
 * Team and hpc modes run other people's pipelines: started as root, a mistake in any sandbox is the whole
 * machine's. They refuse unless the operator says they may (`SERVICE_ALLOW_ROOT=1`); then their sandboxes
 * still run under an unprivileged account, without capabilities.
 */
function refuseRoot(config: ServiceConfig): void {
  if (config.mode === "personal" || process.getuid?.() !== 0 || config.allowRoot) return;
  throw new RootRefusedError(
    `the service runs as root, and ${config.mode} mode runs other people's pipelines: it does not start as root unless told it may`,
    "run it under an account of its own (the container image does: user strand, uid 10001), or set SERVICE_ALLOW_ROOT=1 to start it as root anyway (its sandboxes then run as SERVICE_SANDBOX_USER, default nobody, without capabilities)",
  );
}

/**
 * A shared service's host: the data folder (the database, every user's runs) closed to other local
 * accounts — on a login node they could otherwise read password hashes and results. A root service's
 * sandboxes run under an unprivileged account, which must pass through it to the workspaces: then the
 * folder is passable but not listable (711), and the database file readable by root only.
 */
function guardSharedHost(dataDir: string, logger: Logger, sandboxAccount: boolean): void {
  const mode = sandboxAccount ? 0o711 : 0o700;
  try {
    mkdirSync(dataDir, { recursive: true, mode });
    if ((statSync(dataDir).mode & 0o777) !== mode) {
      chmodSync(dataDir, mode);
      logger.info(sandboxAccount ? "the data folder is now passable but not readable by other accounts (mode 711): the sandbox account reaches the workspaces through it" : "the data folder is now readable by the service's account only (mode 700)");
    }
    for (const name of ["strand.db", "strand.db-wal", "strand.db-shm"]) {
      const path = join(dataDir, name);
      if (existsSync(path) && (statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    }
  } catch (error) {
    logger.warn({ err: error }, "could not make the data folder private to the service's account; other local accounts may read it");
  }
  if (process.getuid?.() === 0) {
    logger.warn("the service runs as root (SERVICE_ALLOW_ROOT=1): its sandboxes run as an unprivileged account, but run the service under an account of its own");
  }
}
