/**
 * AI provider settings, the service's and each user's: the records and the store contract of this area. Field names follow the API's JSON
 * (snake_case); timestamps are RFC 3339 UTC strings in both implementations.
 */

/** The scope of the service-wide AI provider settings; every other scope is one user's id. */
export const SERVER_AI_SCOPE = "server";

/** Provider settings: the shared ones (scope "server") or one user's (scope = user id). The key is stored sealed. */
export interface AiSettingsRecord {
  scope: string;
  provider: string;
  model: string | null;
  api_url: string | null;
  /** The API key as SecretBox.seal made it; never the plain key. */
  sealed_api_key: string | null;
  updated_at: string;
  /** The id of the caller who saved these settings. */
  updated_by: string | null;
}

/** AI provider settings, the service's and each user's: what the services may read and change. */
export interface AiSettingsStore {
  /** The AI settings of a scope (SERVER_AI_SCOPE or a user id), or null when none were saved. */
  getAiSettings(scope: string): Promise<AiSettingsRecord | null>;

  /** Saves the settings of a scope, replacing any earlier ones; updated_at is now. Deleted with the user whose id the scope is. */
  putAiSettings(record: Omit<AiSettingsRecord, "updated_at">): Promise<AiSettingsRecord>;

  /** Removes the settings of a scope; nothing happens when there are none. */
  deleteAiSettings(scope: string): Promise<void>;
}
