/** The cluster registry: the store area, on either database. */
import { storeArea } from "../store-area.js";
import type { ClusterStore } from "./contract.js";
import { PostgresClusterStore } from "./postgres.js";
import { SqliteClusterStore } from "./sqlite.js";

/** Remote clusters reached over SSH. */
export const clusterArea = storeArea<ClusterStore>({
  name: "clusters",
  sqlite: (db, now) => new SqliteClusterStore(db, now),
  postgres: (db, now) => new PostgresClusterStore(db, now),
});
