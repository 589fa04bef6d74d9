/** Complete the audit log rows from what callers supply, shared by both implementations. */
import { randomUUID } from "node:crypto";
import type { AuditEntry, NewAuditEntry } from "./contract.js";

/** A new audit entry. */
export function newAuditRow(input: NewAuditEntry, now: string): AuditEntry {
  return {
    id: input.id ?? randomUUID(),
    time: input.time ?? now,
    actor: input.actor ?? null,
    method: input.method,
    path: input.path,
    status: input.status,
    result: input.result,
    detail: input.detail ?? null,
    action: input.action ?? `${input.method} ${input.path}`,
    resource: input.resource ?? null,
    ip: input.ip ?? null,
  };
}
