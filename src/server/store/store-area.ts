/**
 * One data area of the store (pipelines, runs, accounts, …) as the composer sees it: how to make its
 * implementation on either database. An area's methods are its class's own prototype methods; helpers
 * that must not become store methods are `#private`.
 */
import type { PgDb } from "./postgres-queries.js";
import type { Clock } from "./record-fields.js";
import type { SqliteDb } from "./sqlite-queries.js";

/** How to make one area's store on SQLite and on PostgreSQL; `Contract` is the area's interface. */
export interface StoreArea<Contract extends object> {
  /** The area's name, as its folder is called (for error messages). */
  readonly name: string;
  sqlite(db: SqliteDb, now: Clock): Contract;
  postgres(db: PgDb, now: Clock): Contract;
}

/** Declares an area; the type parameter is the contract every implementation must meet. */
export function storeArea<Contract extends object>(area: StoreArea<Contract>): StoreArea<Contract> {
  return area;
}
