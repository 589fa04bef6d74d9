/**
 * Starts the service on `@hono/node-server` and stops it cleanly on SIGINT/SIGTERM.
 */
import { serve, type ServerType } from "@hono/node-server";
import { createApp } from "./app.js";
import type { ServiceConfig } from "./config.js";

export interface RunningService {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Listens on the configured address; resolves once the port is bound. */
export function startService(config: ServiceConfig, version: string): Promise<RunningService> {
  const { app } = createApp({
    version,
    mode: config.mode,
    rateLimit: config.rateLimit,
    trustedProxies: config.trustedProxies,
    corsOrigins: config.corsOrigins,
    bodyLimit: config.bodyLimit,
    basePath: config.basePath,
  });
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    const server: ServerType = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, (info) => {
      server.off("error", onError);
      const host = config.host.includes(":") ? `[${config.host}]` : config.host;
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
    server.once("error", onError);
  });
}
