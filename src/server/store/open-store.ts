/** Chooses the store from the service configuration: PostgreSQL for a `postgres://` URL, else embedded SQLite. */
import type { Clock } from "./record-fields.js";
import { openPostgresStore } from "./postgres-store.js";
import { openSqliteStore } from "./sqlite-store.js";
import type { Store } from "./store.js";

/** Where the service keeps its data. */
export interface OpenStoreOptions {
  /** `SERVICE_DATABASE_URL`; a `postgres://` or `postgresql://` URL selects PostgreSQL. */
  url?: string;
  /** `SERVICE_DATA_DIR`; holds `strand.db` when no PostgreSQL URL is given. */
  dataDir: string;
  /** The source of timestamps (tests pass a controllable one). */
  clock?: Clock;
}

/** Whether a database URL names a PostgreSQL server. */
export function isPostgresUrl(url: string | undefined): boolean {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

/** Opens and migrates the configured store; any URL other than a PostgreSQL one is refused, not ignored. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const url = options.url?.trim() ?? "";
  if (isPostgresUrl(url)) return openPostgresStore({ url, clock: options.clock });
  if (url !== "") {
    // A mistyped URL silently falling back to a local file would hide where the data went.
    throw new Error(`the database URL must start with postgres:// or postgresql:// (got ${url.split(":")[0]}:…)`);
  }
  return openSqliteStore({ dataDir: options.dataDir, clock: options.clock });
}
