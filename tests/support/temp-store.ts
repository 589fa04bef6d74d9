/**
 * A real embedded store for service tests: SQLite in a fresh temporary folder, migrated like production.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/server/store/sqlite-store.js";
import type { Store } from "../../src/server/store/store.js";

export interface TempStore {
  store: Store;
  dataDir: string;
  /** Closes the store and removes its folder. */
  dispose(): Promise<void>;
}

export async function openTempStore(): Promise<TempStore> {
  const dataDir = mkdtempSync(join(tmpdir(), "strand-store-"));
  const store = await openSqliteStore({ dataDir });
  return {
    store,
    dataDir,
    dispose: async () => {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
