/** Complete share links of saved pipelines rows from what callers supply, shared by both implementations. */
import { randomBytes } from "node:crypto";
import type { NewShare, Share, ShareState } from "./contract.js";

/** A stored share row, before its state is computed. */
export type ShareRow = Omit<Share, "state">;

/** A new share link; the default token carries 192 random bits, unguessable and URL-safe. */
export function newShareRow(input: NewShare, now: string): ShareRow {
  return {
    token: input.token ?? randomBytes(24).toString("base64url"),
    pipeline_id: input.pipeline_id,
    created_at: now,
    expires_at: input.expires_at ?? null,
    revoked_at: null,
  };
}

/** A share row with whether it can still be used at `now`. */
export function withShareState(row: ShareRow, now: string): Share {
  let state: ShareState = "active";
  if (row.revoked_at !== null) state = "revoked";
  else if (row.expires_at !== null && row.expires_at <= now) state = "expired";
  return { ...row, state };
}
