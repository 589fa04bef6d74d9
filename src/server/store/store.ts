/**
 * The whole store as callers receive it: the connection (kind, ping, close) and every area's methods on
 * one object. Services take only the area contracts they use (`RunStore`, `AccountStore & AuditStore`, …)
 * from `<area>/contract.ts`, so a signature says which data a service can touch; this module only composes.
 */
import type { STORE_AREAS } from "./areas.js";
import type { StoreArea } from "./store-area.js";

/** Which storage backs a store, for `GET /api/system` and health reports. */
export type StoreKind = "sqlite" | "postgres";

/** What the store is besides its areas: which database, a health probe, and closing. */
export interface StoreConnection {
  readonly kind: StoreKind;
  /** A cheap round trip, for health checks. */
  ping(): Promise<void>;
  /** Releases the connection(s); the store is unusable afterwards. */
  close(): Promise<void>;
}

/** The contract of one area declaration. */
type ContractOf<Area> = Area extends StoreArea<infer Contract> ? Contract : never;

/** `A | B | C` → `A & B & C`. */
type Intersection<Union> = (Union extends unknown ? (part: Union) => void : never) extends (whole: infer All) => void ? All : never;

/** Every area's contract at once. */
export type AreaStores = Intersection<ContractOf<(typeof STORE_AREAS)[number]>>;

/**
 * The storage abstraction: every method is async; expected failures are StoreError values (NOT_FOUND,
 * CONFLICT, INVALID_CURSOR, QUOTA_EXCEEDED), anything else is a bug or an unreachable database.
 */
export type Store = StoreConnection & AreaStores;

/**
 * One object with the connection's members and every area's methods bound to their area. Two areas
 * offering the same method name is a mistake the composer refuses rather than letting one shadow the other.
 */
export function composeStore(connection: StoreConnection, areas: readonly object[]): Store {
  const store: Record<string, unknown> = {
    kind: connection.kind,
    ping: () => connection.ping(),
    close: () => connection.close(),
  };
  for (const area of areas) {
    const prototype = Object.getPrototypeOf(area) as object;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      if (name === "constructor") continue;
      if (name in store) throw new Error(`two store areas both offer ${name}`);
      const method = Reflect.get(prototype, name) as (...args: unknown[]) => unknown;
      store[name] = method.bind(area);
    }
  }
  return store as unknown as Store;
}
