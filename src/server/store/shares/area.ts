/** Share links: the store area, on either database. */
import { storeArea } from "../store-area.js";
import type { ShareStore } from "./contract.js";
import { PostgresShareStore } from "./postgres.js";
import { SqliteShareStore } from "./sqlite.js";

/** Share links. */
export const shareArea = storeArea<ShareStore>({
  name: "shares",
  sqlite: (db, now) => new SqliteShareStore(db, now),
  postgres: (db, now) => new PostgresShareStore(db, now),
});
