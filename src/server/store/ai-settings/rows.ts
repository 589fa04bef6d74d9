/** Complete aI provider settings, the service's and each user's rows from what callers supply, shared by both implementations. */
import type { AiSettingsRecord } from "./contract.js";

/** AI settings as saved now; absent optional fields are stored as null. */
export function aiSettingsRow(record: Omit<AiSettingsRecord, "updated_at">, now: string): AiSettingsRecord {
  return {
    scope: record.scope,
    provider: record.provider,
    model: record.model ?? null,
    api_url: record.api_url ?? null,
    sealed_api_key: record.sealed_api_key ?? null,
    updated_at: now,
    updated_by: record.updated_by ?? null,
  };
}
