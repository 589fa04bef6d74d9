/**
 * The service's OpenAPI document without a running service: the app is built over a throwaway SQLite store
 * and asked for `/api/openapi.json`, so the document is exactly the one a running service serves. The typed
 * client (`src/client/`) is generated from it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { engineVersion } from "../engine/version.js";
import { createApp } from "./app.js";
import { createLogger } from "./logger.js";
import { openSqliteStore } from "./store/sqlite-store.js";

/** The OpenAPI 3.1 document the service of this package serves. */
export async function exportOpenApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), "strand-openapi-"));
  const store = await openSqliteStore({ dataDir });
  const { app, supervisor } = createApp({ version: engineVersion(), store, dataDir, logger: createLogger({ level: "silent" }) });
  try {
    const response = await app.request("/api/openapi.json");
    if (!response.ok) throw new Error(`GET /api/openapi.json answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  } finally {
    supervisor.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
