/**
 * Webhook body signatures, sent in the `X-Service-Signature` header so a receiver can check that a
 * notification came from someone holding the shared secret and was not altered on the way.
 */
import { createHash, createHmac } from "node:crypto";
import type { SignatureScheme } from "./webhook-config.js";

/** The header that carries the signature. */
export const SIGNATURE_HEADER = "X-Service-Signature";

/** RFC 2104 HMAC-SHA256 of `body` under `key`, as lowercase hex. */
export function hmacSha256Hex(key: string | Uint8Array, body: string | Uint8Array): string {
  return createHmac("sha256", key).update(body).digest("hex");
}

/**
 * SHA-256 over the key's bytes followed by the body's bytes, as lowercase hex. Kept only for receivers
 * written against the legacy scheme: anyone who sees one signed body can extend it and forge a valid
 * signature (length extension), which HMAC prevents.
 */
export function keyedSha256Hex(key: string | Uint8Array, body: string | Uint8Array): string {
  return createHash("sha256").update(key).update(body).digest("hex");
}

/** The signature header's value for a body: `hmac-sha256=<hex>`, or `sha256=<hex>` for the legacy scheme. */
export function signatureHeaderValue(scheme: SignatureScheme, secret: string, body: string | Uint8Array): string {
  return scheme === "hmac-sha256" ? `hmac-sha256=${hmacSha256Hex(secret, body)}` : `sha256=${keyedSha256Hex(secret, body)}`;
}
