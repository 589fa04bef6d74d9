/** AI provider settings, the service's and each user's in PostgreSQL. */
import { eq, getTableColumns } from "drizzle-orm";
import { accountIdOf, type PgDb } from "../postgres-queries.js";
import type { Clock } from "../record-fields.js";
import type { AiSettingsRecord, AiSettingsStore } from "./contract.js";
import { aiSettingsRow } from "./rows.js";
import { aiSettings } from "./schema-pg.js";

/** The AI settings columns callers see (not the account link). */
const { user_id: _settingsUser, ...AI_SETTINGS_COLUMNS } = getTableColumns(aiSettings);

/** AI provider settings, the service's and each user's in the PostgreSQL database. */
export class PostgresAiSettingsStore implements AiSettingsStore {
  constructor(
    private readonly db: PgDb,
    private readonly now: Clock,
  ) {}

  async getAiSettings(scope: string): Promise<AiSettingsRecord | null> {
    const [row] = await this.db.select(AI_SETTINGS_COLUMNS).from(aiSettings).where(eq(aiSettings.scope, scope));
    return row ?? null;
  }

  async putAiSettings(record: Omit<AiSettingsRecord, "updated_at">): Promise<AiSettingsRecord> {
    const row = aiSettingsRow(record, this.now());
    const { scope: _scope, ...changes } = row;
    await this.db
      .insert(aiSettings)
      .values({ ...row, user_id: accountIdOf(row.scope) })
      .onConflictDoUpdate({ target: aiSettings.scope, set: changes });
    return row;
  }

  async deleteAiSettings(scope: string): Promise<void> {
    await this.db.delete(aiSettings).where(eq(aiSettings.scope, scope));
  }
}
