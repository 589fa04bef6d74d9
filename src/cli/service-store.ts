/**
 * The store a local service uses, opened by commands that administer it (`strand user`, `strand cluster
 * add|list|…`): SERVICE_DATABASE_URL, else SERVICE_DATA_DIR — the same values the service has — read as a
 * shared service reads them. `where` says which store it is, for the command to print.
 */
import { serviceConfig, type ServiceConfig } from "../server/config.js";
import { openStore } from "../server/store/open-store.js";
import type { Store } from "../server/store/store.js";
import { UsageError } from "./args.js";

/** An opened store, the configuration it came from, and where it is as people read it. */
export interface ServiceStore {
  store: Store;
  config: ServiceConfig;
  where: string;
}

/** Opens the service's store; a bad setting is a usage error naming it. Close the store when done. */
export async function openServiceStore(): Promise<ServiceStore> {
  let config: ServiceConfig;
  try {
    config = serviceConfig({ ...process.env, SERVICE_MODE: "team" });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const store = await openStore({ url: config.databaseUrl, dataDir: config.dataDir });
  const where = store.kind === "sqlite" ? `SQLite in ${config.dataDir} (SERVICE_DATA_DIR)` : "PostgreSQL (SERVICE_DATABASE_URL)";
  return { store, config, where };
}
