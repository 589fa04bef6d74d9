/**
 * A real service for tests: the app on `@hono/node-server`, on 127.0.0.1 and a free port, so requests go
 * through a real socket (client addresses, compression, headers) exactly as in production.
 */
import type { ServerType } from "@hono/node-server";
import { serveApp } from "../../src/server/adapter-requests.js";
import { createApp, type AppOptions } from "../../src/server/app.js";
import { createLogger } from "../../src/server/logger.js";
import type { RunSupervisor } from "../../src/server/runner/supervisor.js";
import type { Store } from "../../src/server/store/store.js";
import { openTempStore } from "./temp-store.js";

export interface TestService {
  url: string;
  /** The service's log lines as `<level> <message>`, in order. */
  lines: string[];
  /** The same lines as the JSON objects the service wrote. */
  logs: Record<string, unknown>[];
  /** The raw text the logger wrote (to check that no secret reached it). */
  logText: () => string;
  store: Store;
  /** The data directory the app was given (run workspaces are under `runs/`). */
  dataDir: string | undefined;
  /** The run supervisor (tests wait on `whenFinished`). */
  supervisor: RunSupervisor;
  close(): Promise<void>;
}

/** Starts the app with the given options (default: a fresh SQLite store); log lines are collected instead of printed. */
export async function startTestService(options: Partial<AppOptions> = {}): Promise<TestService> {
  const lines: string[] = [];
  const logs: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const destination = {
    write(text: string) {
      raw.push(text);
      const entry = JSON.parse(text) as Record<string, unknown>;
      logs.push(entry);
      lines.push(`${String(entry.level)} ${String(entry.msg)}`);
    },
  };
  const temp = options.store ? undefined : await openTempStore();
  const store = options.store ?? temp!.store;
  const logger = createLogger({ level: "debug", destination });
  const { app, supervisor, store: appStore } = createApp({ version: "9.9.9-test", logger, dataDir: temp?.dataDir, ...options, store });
  let server!: ServerType;
  const port = await new Promise<number>((resolve) => {
    server = serveApp(app.fetch, { hostname: "127.0.0.1", port: 0 }, (info) => resolve(info.port));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    lines,
    logs,
    logText: () => raw.join(""),
    store: appStore,
    dataDir: options.dataDir ?? temp?.dataDir,
    supervisor,
    close: () =>
      new Promise<void>((resolve) => {
        supervisor.close();
        server.close(() => resolve());
        // Event streams stay open until the server ends them.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }).then(() => temp?.dispose()),
  };
}
