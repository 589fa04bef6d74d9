/**
 * The stores a service suite runs against: embedded SQLite always, and PostgreSQL when a server exists
 * (always in CI, where STRICT_SERVICES=1 turns a missing server into a failing test). Each `open()` gives a
 * new empty store.
 */
import type { Store } from "../../src/server/store/store.js";
import { openPostgresStore } from "../../src/server/store/postgres-store.js";
import { dropTestDatabase, ensurePostgres, failWithoutPostgresWhenStrict } from "./postgres-server.js";
import { openTempStore } from "./temp-store.js";

export interface OpenedStore {
  store: Store;
  dataDir?: string;
  dispose(): Promise<void>;
}

export interface StoreKind {
  name: "sqlite" | "postgres";
  open(): Promise<OpenedStore>;
}

/** SQLite, plus PostgreSQL when available; call at the top level of a test file (it may register a failing test). */
export async function serviceStores(): Promise<StoreKind[]> {
  const kinds: StoreKind[] = [{ name: "sqlite", open: openTempStore }];
  const probe = await ensurePostgres();
  failWithoutPostgresWhenStrict(probe !== undefined);
  if (probe !== undefined) {
    await dropTestDatabase(probe);
    kinds.push({
      name: "postgres",
      open: async () => {
        const url = await ensurePostgres();
        if (url === undefined) throw new Error("PostgreSQL went away during the tests");
        const store = await openPostgresStore({ url });
        return {
          store,
          dispose: async () => {
            await store.close();
            await dropTestDatabase(url);
          },
        };
      },
    });
  }
  return kinds;
}
