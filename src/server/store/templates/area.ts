/** Templates users added: the store area, on either database. */
import { storeArea } from "../store-area.js";
import type { TemplateStore } from "./contract.js";
import { PostgresTemplateStore } from "./postgres.js";
import { SqliteTemplateStore } from "./sqlite.js";

/** Templates users added. */
export const templateArea = storeArea<TemplateStore>({
  name: "templates",
  sqlite: (db, now) => new SqliteTemplateStore(db, now),
  postgres: (db, now) => new PostgresTemplateStore(db, now),
});
