/**
 * The audit log as administrators list it: the query's filters checked and turned into the store's (times
 * must be RFC 3339 and are compared as UTC instants; a username is looked up to its user id), and entries
 * shown with the fields docs/guide/team-and-security.md lists, plus the HTTP status and the request id (to find the request in
 * the service's log).
 */
import type { z } from "@hono/zod-openapi";
import { ServiceError } from "../../errors.js";
import type { AuditEntry, AuditQuery } from "../../store/audit/contract.js";
import type { AccountStore } from "../../store/accounts/contract.js";
import type { AuditEntrySchema, AuditQuerySchema } from "./schemas.js";

/** RFC 3339 date-time: a full date, a time with seconds, optional fraction, and an offset (Z or ±hh:mm). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 time as the store's UTC ISO form; 400 BAD_REQUEST naming the field otherwise. */
export function queryTime(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const millis = RFC3339.test(value) ? Date.parse(value.replace(" ", "T")) : Number.NaN;
  if (Number.isNaN(millis)) {
    throw new ServiceError("BAD_REQUEST", `${field} is not an RFC 3339 time: '${value.slice(0, 64)}'`, {
      suggestion: `give ${field} as a date and time with its offset, e.g. ${field}=2025-01-31T00:00:00Z`,
    });
  }
  return new Date(millis).toISOString();
}

/** The store query for a listing request. */
export async function auditQuery(store: AccountStore, query: z.infer<typeof AuditQuerySchema>): Promise<AuditQuery> {
  const since = queryTime("since", query.since);
  const until = queryTime("until", query.until);
  if (since !== undefined && until !== undefined && since >= until) {
    throw new ServiceError("BAD_REQUEST", `since (${query.since}) is not before until (${query.until})`, { suggestion: "give a since earlier than until" });
  }
  return { limit: query.limit, cursor: query.cursor, user: query.user === undefined ? undefined : await actorId(store, query.user), action: query.action, result: query.result, resource: query.resource, since, until };
}

/** A user id as it is; a username as its user id (entries record ids); anything else as given (it matches nothing, or `local`). */
async function actorId(store: AccountStore, user: string): Promise<string> {
  // An id first: a username shaped like another account's id must not redirect the filter to its owner.
  if (await store.getUser(user).then(() => true, () => false)) return user;
  const named = await store.findCredentials(user).catch(() => null);
  return named?.id ?? user;
}

/** An entry as the listing shows it. */
export function auditEntryView(entry: AuditEntry): z.infer<typeof AuditEntrySchema> {
  const { id, time, actor, action, resource, result, ip, status, detail } = entry;
  return { id, time, user: actor, action, resource, result, ip, status, request_id: detail };
}
