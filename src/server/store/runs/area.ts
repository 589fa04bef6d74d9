/** Runs: the store area, on either database. */
import { storeArea } from "../store-area.js";
import type { RunStore } from "./contract.js";
import { PostgresRunStore } from "./postgres.js";
import { SqliteRunStore } from "./sqlite.js";

/** Runs. */
export const runArea = storeArea<RunStore>({
  name: "runs",
  sqlite: (db, now) => new SqliteRunStore(db, now),
  postgres: (db, now) => new PostgresRunStore(db, now),
});
