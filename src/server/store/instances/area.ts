/** The service instances: the store area, on either database. */
import { storeArea } from "../store-area.js";
import type { InstanceStore } from "./contract.js";
import { PostgresInstanceStore } from "./postgres.js";
import { SqliteInstanceStore } from "./sqlite.js";

/** The service processes serving this database, with their heartbeats. */
export const instanceArea = storeArea<InstanceStore>({
  name: "instances",
  sqlite: (db, now) => new SqliteInstanceStore(db, now),
  postgres: (db, now) => new PostgresInstanceStore(db, now),
});
