/**
 * The tokens clients hold: a session token `<session id>.<secret>` and a personal access token
 * `strand_pat_<token id>.<secret>`. The secret is 20 random bytes in lower-case base32; the store keeps only
 * its SHA-256, looked up by id and compared in constant time, so neither a copy of the database nor the
 * timing of a refusal tells an attacker a valid token.
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { constantTimeEqual } from "@oslojs/crypto/subtle";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase, decodeHex } from "@oslojs/encoding";
import { randomBytes, randomUUID } from "node:crypto";

/** What marks a personal access token (so it is recognisable in a leaked file, as GitHub's `ghp_` is). */
export const ACCESS_TOKEN_PREFIX = "strand_pat_";

/** A token as minted: what the client gets once, and what the store keeps. */
export interface MintedToken {
  id: string;
  token: string;
  secretHash: string;
}

/** A token as presented by a client, split into its parts. */
export interface PresentedToken {
  kind: "session" | "access-token";
  id: string;
  secret: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = /^[a-z2-7]{32}$/;

/** The hex SHA-256 of a token's secret. */
export function hashSecret(secret: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(secret)));
}

/** A new token of a kind, with a fresh id and secret. */
export function mintToken(kind: PresentedToken["kind"]): MintedToken {
  const id = randomUUID();
  const secret = encodeBase32LowerCaseNoPadding(randomBytes(20));
  return { id, token: `${kind === "access-token" ? ACCESS_TOKEN_PREFIX : ""}${id}.${secret}`, secretHash: hashSecret(secret) };
}

/** The parts of a presented token, or null when it is not shaped like one of ours (then it is simply unknown). */
export function parseToken(token: string): PresentedToken | null {
  const kind = token.startsWith(ACCESS_TOKEN_PREFIX) ? "access-token" : "session";
  const body = kind === "access-token" ? token.slice(ACCESS_TOKEN_PREFIX.length) : token;
  const dot = body.indexOf(".");
  if (dot < 0) return null;
  const id = body.slice(0, dot);
  const secret = body.slice(dot + 1);
  if (!UUID.test(id) || !SECRET.test(secret)) return null;
  return { kind, id, secret };
}

/** Whether a presented secret matches a stored hash, in time that does not depend on where they differ. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = sha256(new TextEncoder().encode(secret));
  let stored: Uint8Array;
  try {
    stored = decodeHex(storedHash);
  } catch {
    return false;
  }
  return stored.length === presented.length && constantTimeEqual(presented, stored);
}
