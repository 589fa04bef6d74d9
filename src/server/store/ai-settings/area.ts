/** AI provider settings: the store area, on either database. */
import { storeArea } from "../store-area.js";
import type { AiSettingsStore } from "./contract.js";
import { PostgresAiSettingsStore } from "./postgres.js";
import { SqliteAiSettingsStore } from "./sqlite.js";

/** AI provider settings. */
export const aiSettingsArea = storeArea<AiSettingsStore>({
  name: "ai-settings",
  sqlite: (db, now) => new SqliteAiSettingsStore(db, now),
  postgres: (db, now) => new PostgresAiSettingsStore(db, now),
});
