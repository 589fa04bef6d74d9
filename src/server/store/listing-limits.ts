/** Page sizes for the store's listings, clamped rather than refused so a large `limit` still answers. */

/** Pipelines per listing or search: default and maximum. */
export const PIPELINE_LIMIT = { fallback: 50, max: 100 } as const;

/** Runs and audit entries per page: default and maximum (the API allows up to 500 runs). */
export const PAGE_LIMIT = { fallback: 50, max: 500 } as const;

/** A whole number of rows between 1 and `bounds.max`, `bounds.fallback` when absent or not a number. */
export function clampLimit(limit: number | undefined, bounds: { fallback: number; max: number }): number {
  if (limit === undefined || !Number.isFinite(limit)) return bounds.fallback;
  return Math.min(bounds.max, Math.max(1, Math.floor(limit)));
}

/** Chat sessions per page: default (the predecessor's newest 20) and maximum. */
export const CHAT_SESSION_LIMIT = { fallback: 20, max: 100 } as const;

/** Chat messages per read: a whole long conversation by default, and never more than that. */
export const CHAT_MESSAGE_LIMIT = { fallback: 1000, max: 1000 } as const;
