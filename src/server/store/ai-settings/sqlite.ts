/** AI provider settings, the service's and each user's in SQLite. */
import { eq, getTableColumns } from "drizzle-orm";
import type { Clock } from "../record-fields.js";
import { accountIdOf, type SqliteDb } from "../sqlite-queries.js";
import type { AiSettingsRecord, AiSettingsStore } from "./contract.js";
import { aiSettingsRow } from "./rows.js";
import { aiSettings } from "./schema-sqlite.js";

/** The AI settings columns callers see (not the account link). */
const { user_id: _settingsUser, ...AI_SETTINGS_COLUMNS } = getTableColumns(aiSettings);

/** AI provider settings, the service's and each user's in the SQLite database. */
export class SqliteAiSettingsStore implements AiSettingsStore {
  constructor(
    private readonly db: SqliteDb,
    private readonly now: Clock,
  ) {}

  async getAiSettings(scope: string): Promise<AiSettingsRecord | null> {
    return this.db.select(AI_SETTINGS_COLUMNS).from(aiSettings).where(eq(aiSettings.scope, scope)).get() ?? null;
  }

  async putAiSettings(record: Omit<AiSettingsRecord, "updated_at">): Promise<AiSettingsRecord> {
    const row = aiSettingsRow(record, this.now());
    const { scope: _scope, ...changes } = row;
    this.db
      .insert(aiSettings)
      .values({ ...row, user_id: accountIdOf(row.scope) })
      .onConflictDoUpdate({ target: aiSettings.scope, set: changes })
      .run();
    return row;
  }

  async deleteAiSettings(scope: string): Promise<void> {
    this.db.delete(aiSettings).where(eq(aiSettings.scope, scope)).run();
  }
}
