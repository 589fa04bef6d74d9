/**
 * Ed25519 signatures of plugin manifests (RFC 8032, with @noble/ed25519's synchronous API and SHA-512 from
 * node:crypto): the bytes signed are the canonical JSON of the manifest without its `signature` field; keys
 * and signatures travel as standard base64. Verification is strict RFC 8032 (not ZIP-215), so a signature
 * has exactly one accepted encoding.
 */
import { createHash } from "node:crypto";
import * as ed from "@noble/ed25519";
import { decodeBase64, encodeBase64 } from "@oslojs/encoding";
import { canonicalBytes } from "./canonical-json.js";

// The synchronous API needs a SHA-512; node:crypto's is as good as @noble/hashes' (not installed here).
ed.hashes.sha512 = (message: Uint8Array) => new Uint8Array(createHash("sha512").update(message).digest());

/** The one algorithm a manifest signature may name. */
export const SIGNATURE_ALGORITHM = "ed25519";

/** The `signature` field of a signed manifest. */
export interface ManifestSignature {
  algorithm: typeof SIGNATURE_ALGORITHM;
  /** The signer's 32-byte public key, base64. */
  public_key: string;
  /** The 64-byte signature, base64. */
  value: string;
  /** A name for the key, for people (never used to decide trust). */
  key_id?: string;
}

/** A new key pair: the 32-byte secret seed and the public key. */
export function generateKeyPair(): { secretKey: Uint8Array; publicKey: Uint8Array } {
  return ed.keygen();
}

/** The public key of a secret seed. */
export function publicKeyOf(secretKey: Uint8Array): Uint8Array {
  return ed.getPublicKey(secretKey);
}

/** Signs bytes (RFC 8032 Ed25519, deterministic). */
export function signBytes(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
  return ed.sign(message, secretKey);
}

/** Whether a signature of these bytes verifies under the public key (false for malformed keys or signatures). */
export function verifyBytes(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    return ed.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/** The bytes a manifest's signature covers: its canonical JSON without the `signature` field. */
export function signedBytes(manifest: Record<string, unknown>): Uint8Array {
  const { signature: _signature, ...rest } = manifest;
  return canonicalBytes(rest);
}

/** The manifest with a fresh signature (any previous one replaced). */
export function signManifest(manifest: Record<string, unknown>, secretKey: Uint8Array, keyId?: string): Record<string, unknown> {
  const signature: ManifestSignature = {
    algorithm: SIGNATURE_ALGORITHM,
    public_key: encodeBase64(publicKeyOf(secretKey)),
    value: encodeBase64(signBytes(signedBytes(manifest), secretKey)),
    ...(keyId ? { key_id: keyId } : {}),
  };
  const { signature: _old, ...rest } = manifest;
  return { ...rest, signature };
}

/** Decodes standard base64 of an exact length; null when it is not that. */
export function decodeKeyBytes(text: string, length: number): Uint8Array | null {
  try {
    const bytes = decodeBase64(text.trim());
    return bytes.length === length ? bytes : null;
  } catch {
    return null;
  }
}

/** Standard base64 with padding, the form keys and signatures are written in. */
export function base64(bytes: Uint8Array): string {
  return encodeBase64(bytes);
}

/** Whether two byte strings are equal, in time independent of where they differ. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}
