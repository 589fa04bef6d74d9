/** The audit log (administrators), newest first, a page at a time over the service's cursor. */
import { infiniteQueryOptions } from "@tanstack/react-query";
import type { components } from "../../client/api-types.js";
import { api, dataOf } from "./client.js";

/** One page of entries. */
export type AuditPage = components["schemas"]["AuditPage"];

/** What the log is filtered by, as the service takes it (absent: no filter). */
export interface AuditQuery {
  user?: string;
  action?: string;
  resource?: string;
  result?: "success" | "failure" | "denied";
  since?: string;
  until?: string;
}

/** Query keys of the audit log. */
export const auditKeys = {
  all: ["audit"] as const,
  list: (filter: AuditQuery, pageSize: number) => [...auditKeys.all, "list", filter, pageSize] as const,
};

/** `GET /api/audit`, `pageSize` entries a page, following `next_cursor`. */
export function auditQuery(filter: AuditQuery, pageSize: number) {
  return infiniteQueryOptions({
    queryKey: auditKeys.list(filter, pageSize),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page: AuditPage) => page.next_cursor ?? undefined,
    queryFn: async ({ pageParam }) => dataOf(await api.GET("/api/audit", { params: { query: { limit: pageSize, cursor: pageParam, ...filter } } })),
  });
}
