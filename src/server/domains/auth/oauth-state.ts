/**
 * The short-lived cookie that carries a sign-in with a provider from the authorize redirect to the callback:
 * the `state`, the PKCE code verifier and where to go afterwards. HttpOnly (no page script reads the
 * verifier), SameSite=Lax (sent on the provider's top-level redirect back), its Path only the provider's
 * callback, Secure behind https, and 10 minutes long. Its value is sealed with an HMAC keyed from the
 * provider's client secret, so a cookie planted by a sibling site cannot choose the return path or extend
 * the expiry, and the same keys work on every replica and across restarts. The callback compares the
 * returned `state` with the cookie's in constant time.
 */
import { hmac } from "@oslojs/crypto/hmac";
import { SHA256, sha256 } from "@oslojs/crypto/sha2";
import { constantTimeEqual } from "@oslojs/crypto/subtle";
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import type { OAuthProviderId, Secret } from "./oauth-settings.js";

/** The cookie's name. */
export const OAUTH_STATE_COOKIE = "oauth_state";

/** How long a sign-in may take at the provider (default 10 minutes). */
export const DEFAULT_OAUTH_STATE_TTL_MS = 10 * 60 * 1000;

/** A sign-in between the authorize redirect and the callback. */
export interface PendingSignIn {
  state: string;
  codeVerifier: string;
  /** The app path to land on afterwards (already checked to be a same-origin path). */
  returnTo: string;
}

/** Why a callback's state was refused. */
export type StateRefusal = "missing" | "tampered" | "expired" | "mismatch";

const encoder = new TextEncoder();

/** Whether two strings are equal, in time that does not depend on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  // Lengths of state values are public (arctic's are all 32 characters); the content is not.
  return left.length === right.length && constantTimeEqual(left, right);
}

/** Seals and opens one provider's state cookies. */
export class OAuthStateSeal {
  private readonly key: Uint8Array;

  constructor(
    private readonly provider: OAuthProviderId,
    clientSecret: Secret,
    private readonly ttlMs: number = DEFAULT_OAUTH_STATE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.key = sha256(encoder.encode(`strand oauth state\0${provider}\0${clientSecret.reveal()}`));
  }

  /** How long the cookie lives, in whole seconds (its Max-Age). */
  get maxAgeSeconds(): number {
    return Math.max(1, Math.ceil(this.ttlMs / 1000));
  }

  /** The cookie value for a pending sign-in. */
  seal(pending: PendingSignIn): string {
    const payload = encodeBase64urlNoPadding(encoder.encode(JSON.stringify({ p: this.provider, s: pending.state, v: pending.codeVerifier, r: pending.returnTo, e: this.now() + this.ttlMs })));
    return `${payload}.${this.mac(payload)}`;
  }

  /** The pending sign-in of a cookie whose state matches the callback's, or why not. */
  open(cookie: string | undefined, returnedState: string | undefined): PendingSignIn | { refused: StateRefusal } {
    if (!cookie) return { refused: "missing" };
    const dot = cookie.indexOf(".");
    const payload = dot < 0 ? "" : cookie.slice(0, dot);
    if (dot < 0 || !sameSecret(this.mac(payload), cookie.slice(dot + 1))) return { refused: "tampered" };
    let data: { p?: unknown; s?: unknown; v?: unknown; r?: unknown; e?: unknown };
    try {
      data = JSON.parse(new TextDecoder().decode(decodeBase64urlIgnorePadding(payload))) as typeof data;
    } catch {
      return { refused: "tampered" };
    }
    if (data.p !== this.provider || typeof data.s !== "string" || typeof data.v !== "string" || typeof data.r !== "string" || typeof data.e !== "number") return { refused: "tampered" };
    if (data.e <= this.now()) return { refused: "expired" };
    if (returnedState === undefined || !sameSecret(data.s, returnedState)) return { refused: "mismatch" };
    return { state: data.s, codeVerifier: data.v, returnTo: data.r };
  }

  private mac(payload: string): string {
    return encodeBase64urlNoPadding(hmac(SHA256, this.key, encoder.encode(payload)));
  }
}

/** The `Set-Cookie` value that keeps a sealed sign-in for the callback at `path`. */
export function stateCookie(value: string, path: string, maxAgeSeconds: number, secure: boolean): string {
  return `${OAUTH_STATE_COOKIE}=${value}; Path=${path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The `Set-Cookie` value that removes the state cookie (a state is good for one callback). */
export function clearedStateCookie(path: string, secure: boolean): string {
  return `${OAUTH_STATE_COOKIE}=; Path=${path}; Max-Age=0; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}
