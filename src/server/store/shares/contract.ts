/**
 * Share links of saved pipelines: the records and the store contract of this area. Field names follow the API's JSON
 * (snake_case); timestamps are RFC 3339 UTC strings in both implementations.
 */

/** Whether a share link can still be used, computed from the store's clock when read. */
export type ShareState = "active" | "expired" | "revoked";

/** A share link token for one pipeline. */
export interface Share {
  token: string;
  pipeline_id: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  state: ShareState;
}

/** What a caller supplies to create a share link; the token defaults to a random URL-safe string. */
export interface NewShare {
  token?: string;
  pipeline_id: string;
  expires_at?: string | null;
}

/** Share links of saved pipelines: what the services may read and change. */
export interface ShareStore {
  /** Creates a share link for an existing pipeline. NOT_FOUND for an unknown pipeline, CONFLICT for a used token. */
  createShare(input: NewShare): Promise<Share>;

  /** The share link with this token, whatever its state. NOT_FOUND if there is none. */
  getShare(token: string): Promise<Share>;

  /** The share links of a pipeline, newest first, whatever their state. NOT_FOUND for an unknown pipeline. */
  listShares(pipelineId: string): Promise<Share[]>;

  /** Revokes a share link (keeping the first revocation time); NOT_FOUND unless it belongs to `pipelineId`. */
  revokeShare(pipelineId: string, token: string): Promise<Share>;
}
