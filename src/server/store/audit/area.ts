/** The audit log: the store area, on either database. */
import { storeArea } from "../store-area.js";
import type { AuditStore } from "./contract.js";
import { PostgresAuditStore } from "./postgres.js";
import { SqliteAuditStore } from "./sqlite.js";

/** The audit log. */
export const auditArea = storeArea<AuditStore>({
  name: "audit",
  sqlite: (db, now) => new SqliteAuditStore(db, now),
  postgres: (db, now) => new PostgresAuditStore(db, now),
});
