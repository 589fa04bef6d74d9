/**
 * The pipeline listing from memory. `GET /api/pipelines` is the page every client opens first and polls;
 * reading and mapping up to 100 rows each time costs far more than answering from a cache. A listing is kept
 * per query (who may read, how many) until a pipeline changes through this store — every create, update,
 * rollback and delete, whichever domain makes it — or for at most `ttlMs`, which bounds how stale it can be
 * when another process shares the database.
 */
import type { PipelineQuery, SavedPipelineSummary } from "./contract.js";
import type { Store } from "../store.js";

export interface ListingCacheOptions {
  /** The longest a listing is kept without a change seen here (default 1 s). */
  ttlMs?: number;
  /** The most listings kept at once (default 256; one per reader and page size). */
  maxEntries?: number;
  /** The clock, for tests. */
  now?: () => number;
}

/** The store methods that change what a pipeline listing shows. */
const LISTING_WRITES = new Set<string | symbol>(["createPipeline", "updatePipeline", "rollbackPipeline", "deletePipeline"]);

/** `store` with its pipeline listings cached; every other method is the store's own. */
export function withCachedListing(store: Store, options: ListingCacheOptions = {}): Store {
  const ttlMs = options.ttlMs ?? 1000;
  const maxEntries = options.maxEntries ?? 256;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { rows: Promise<SavedPipelineSummary[]>; at: number; generation: number }>();
  let generation = 0;

  const listPipelines = (query: PipelineQuery = {}): Promise<SavedPipelineSummary[]> => {
    const key = `${query.visibleTo ?? "\u0000all"}\u0000${query.limit ?? ""}`;
    const hit = cache.get(key);
    if (hit && hit.generation === generation && now() - hit.at < ttlMs) return hit.rows;
    if (cache.size >= maxEntries) cache.clear();
    const rows = store.listPipelines(query);
    const entry = { rows, at: now(), generation };
    cache.set(key, entry);
    // A failed read is not kept.
    rows.catch(() => cache.get(key) === entry && cache.delete(key));
    return rows;
  };

  // The proxy's own target is an empty object, so the store's own properties (frozen or not) impose nothing.
  return new Proxy({} as Store, {
    get(_empty, property) {
      if (property === "listPipelines") return listPipelines;
      const value = Reflect.get(store, property) as unknown;
      if (typeof value !== "function") return value;
      if (!LISTING_WRITES.has(property)) return value.bind(store);
      return async (...args: unknown[]) => {
        try {
          return await (value as (...args: unknown[]) => Promise<unknown>).apply(store, args);
        } finally {
          // Listings read before the write finished may hold the old rows: they are not served again.
          generation++;
        }
      };
    },
  });
}
