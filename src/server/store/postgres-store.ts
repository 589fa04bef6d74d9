/**
 * The PostgreSQL store, through the `postgres` driver with a small connection pool. Pipeline updates lock
 * the pipeline row (`SELECT … FOR UPDATE`) in a transaction, so concurrent writers queue on the row and each
 * one reads the revision the previous one wrote.
 */
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { STORE_AREAS } from "./areas.js";
import { migrationsFolder } from "./migrations-folder.js";
import type { PgDb } from "./postgres-queries.js";
import { systemClock, type Clock } from "./record-fields.js";
import { composeStore, type Store, type StoreConnection } from "./store.js";

/** How to open the PostgreSQL store. */
export interface PostgresStoreOptions {
  /** A `postgres://` or `postgresql://` connection URL. */
  url: string;
  /** Pool size (default 10). */
  maxConnections?: number;
  clock?: Clock;
}

/** An arbitrary fixed key for the advisory lock that serialises migrations between service instances. */
const MIGRATION_LOCK_KEY = 0x5374726e; // "Strn"

/** Connects, applies pending migrations and returns the store. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  await migratePostgres(options.url);
  const client = postgres(options.url, { max: options.maxConnections ?? 10, onnotice: () => {} });
  const db: PgDb = drizzle({ client });
  const now = options.clock ?? systemClock;
  return composeStore(new PostgresConnection(client), STORE_AREAS.map((area) => area.postgres(db, now)));
}

/**
 * Applies the pending migrations on one dedicated connection holding an advisory lock: drizzle's migrator
 * checks what is applied before its transaction, so two instances starting together would otherwise both
 * run the first migration.
 */
async function migratePostgres(url: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migrate(drizzle({ client }), { migrationsFolder: migrationsFolder("pg") });
    await client`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
  } finally {
    await client.end();
  }
}

/** The connection pool: its kind, a health probe, and closing. */
class PostgresConnection implements StoreConnection {
  readonly kind = "postgres" as const;

  constructor(private readonly client: postgres.Sql) {}

  async ping(): Promise<void> {
    await this.client`select 1`;
  }

  async close(): Promise<void> {
    await this.client.end({ timeout: 5 });
  }
}
