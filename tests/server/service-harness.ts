/**
 * A real service for tests: the app on `@hono/node-server`, on 127.0.0.1 and a free port, so requests go
 * through a real socket (client addresses, compression, headers) exactly as in production.
 */
import { serve, type ServerType } from "@hono/node-server";
import { createApp, type AppOptions } from "../../src/server/app.js";
import type { Store } from "../../src/server/store/store.js";
import { openTempStore } from "../support/temp-store.js";

export interface TestService {
  url: string;
  lines: string[];
  store: Store;
  close(): Promise<void>;
}

/** Starts the app with the given options (default: a fresh SQLite store); log lines are collected instead of printed. */
export async function startTestService(options: Partial<AppOptions> = {}): Promise<TestService> {
  const lines: string[] = [];
  const temp = options.store ? undefined : await openTempStore();
  const store = options.store ?? temp!.store;
  const { app } = createApp({ version: "9.9.9-test", log: (level, line) => void lines.push(`${level} ${line}`), dataDir: temp?.dataDir, ...options, store });
  let server!: ServerType;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => resolve(info.port));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    lines,
    store,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())).then(() => temp?.dispose()),
  };
}
