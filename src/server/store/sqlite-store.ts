/**
 * The embedded store: one SQLite file in WAL mode through better-sqlite3. Writes that read before they
 * write run in `BEGIN IMMEDIATE` transactions, which take the file's write lock up front, so two processes
 * (or two connections) updating the same pipeline queue instead of both reading the same revision.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { STORE_AREAS } from "./areas.js";
import { migrationsFolder } from "./migrations-folder.js";
import { systemClock, type Clock } from "./record-fields.js";
import type { SqliteDb } from "./sqlite-queries.js";
import { composeStore, type Store, type StoreConnection } from "./store.js";

/** The file name of the embedded database inside the data directory. */
export const SQLITE_FILE_NAME = "strand.db";

/** How long a connection waits for another writer before giving up with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 15_000;

/** How to open the embedded store. */
export interface SqliteStoreOptions {
  /** The service's data directory; created when missing. */
  dataDir: string;
  clock?: Clock;
}

/** Opens (creating and migrating when needed) `<dataDir>/strand.db`. */
export function openSqliteStore(options: SqliteStoreOptions): Store {
  mkdirSync(options.dataDir, { recursive: true });
  const client = new Database(join(options.dataDir, SQLITE_FILE_NAME), { timeout: BUSY_TIMEOUT_MS });
  try {
    client.pragma("journal_mode = WAL");
    client.pragma("foreign_keys = ON");
    client.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // NORMAL is durable across application crashes in WAL mode; only a power loss can drop the last commits.
    client.pragma("synchronous = NORMAL");
    const db = drizzle({ client });
    migrateSqlite(db);
    const now = options.clock ?? systemClock;
    return composeStore(new SqliteConnection(client), STORE_AREAS.map((area) => area.sqlite(db, now)));
  } catch (error) {
    client.close();
    throw error;
  }
}

/**
 * Applies the pending migrations. drizzle's migrator reads the applied list before its transaction, so two
 * processes opening a fresh file together can both try the first migration; the loser's statements fail
 * and roll back, and a second attempt finds the migration applied.
 */
function migrateSqlite(db: SqliteDb): void {
  const attempts = 3;
  for (let attempt = 1; ; attempt++) {
    try {
      migrate(db, { migrationsFolder: migrationsFolder("sqlite") });
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
}

/** The embedded file as a connection: its kind, a prepared health probe, and closing. */
class SqliteConnection implements StoreConnection {
  readonly kind = "sqlite" as const;
  #pingStatement: Database.Statement | undefined;

  constructor(private readonly client: Database.Database) {}

  async ping(): Promise<void> {
    // Prepared once: health probes call this on every request.
    this.#pingStatement ??= this.client.prepare("select 1");
    this.#pingStatement.get();
  }

  async close(): Promise<void> {
    if (this.client.open) this.client.close();
  }
}
