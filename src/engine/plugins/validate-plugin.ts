/**
 * Plugin validation: the manifest's field checks and its Ed25519 signature, judged against the trusted
 * keys (the service's `SERVICE_PLUGIN_TRUSTED_KEYS` and those a request or `strand plugin verify` adds).
 * Shared by `POST /api/plugins/validate` and the command line, so both give the same answer and messages.
 *
 * The verdict: `valid` is true only when the fields have no errors and, if a signature is present, it
 * verifies and its key is trusted. A signature that does not verify, and one made with a key nobody trusts,
 * are errors. An unsigned manifest is valid with a warning unless `allowUnsigned` is false.
 */
import { CanonicalJsonError } from "./canonical-json.js";
import { checkManifest, type ManifestProblem } from "./manifest.js";
import { base64, decodeKeyBytes, sameBytes, SIGNATURE_ALGORITHM, signedBytes, verifyBytes } from "./signature.js";

/** The environment variable that lists the service's trusted keys. */
export const TRUSTED_KEYS_VARIABLE = "SERVICE_PLUGIN_TRUSTED_KEYS";

/** A public key whose signatures are trusted. */
export interface TrustedKey {
  /** A label for people (`key_id:` in the configuration, the map key in a request), or null. */
  id: string | null;
  key: Uint8Array;
}

/** What is known of a manifest's signature. */
export interface SignatureVerdict {
  present: boolean;
  /** The signature is well formed and matches the manifest under its public key. */
  verified: boolean;
  /** It verified, and its public key is one of the trusted keys. */
  trusted: boolean;
  /** The trusted key's label, else the signature's own key_id; null when neither is known. */
  key_id: string | null;
  /** The signer's public key (base64) as the signature gives it. */
  public_key: string | null;
}

/** The answer of a validation. */
export interface PluginValidation {
  valid: boolean;
  name: string | null;
  version: string | null;
  plugin_type: string | null;
  errors: ManifestProblem[];
  warnings: ManifestProblem[];
  signature: SignatureVerdict;
}

export interface ValidationOptions {
  /** The strand version `strand_version` must admit. */
  strandVersion: string;
  trustedKeys: readonly TrustedKey[];
  /** Whether an unsigned manifest may be valid (default true: then it only gets a warning). */
  allowUnsigned?: boolean;
}

/** A trusted key written wrongly (in the configuration or a request). */
export interface KeyProblem {
  where: string;
  message: string;
}

/** Reads one trusted key: 32 bytes of standard base64. */
export function readPublicKey(text: string, where: string): Uint8Array | KeyProblem {
  return decodeKeyBytes(text, 32) ?? { where, message: `${where} is not an Ed25519 public key (32 bytes in standard base64, 44 characters ending in "=")` };
}

/** The keys `SERVICE_PLUGIN_TRUSTED_KEYS` lists (comma-separated, each `BASE64` or `key_id:BASE64`), and entries that are not keys. */
export function configuredTrustedKeys(list: string): { keys: TrustedKey[]; problems: KeyProblem[] } {
  const keys: TrustedKey[] = [];
  const problems: KeyProblem[] = [];
  const entries = list.split(",").map((entry) => entry.trim());
  entries.forEach((entry, index) => {
    if (entry === "") return;
    const colon = entry.indexOf(":");
    const id = colon > 0 ? entry.slice(0, colon).trim() : null;
    const key = readPublicKey(colon > 0 ? entry.slice(colon + 1) : entry, `${TRUSTED_KEYS_VARIABLE} entry ${index + 1}${id ? ` (${id})` : ""}`);
    if (key instanceof Uint8Array) keys.push({ id, key });
    else problems.push(key);
  });
  return { keys, problems };
}

const NO_SIGNATURE: SignatureVerdict = { present: false, verified: false, trusted: false, key_id: null, public_key: null };

/** Validates a manifest: its fields, then its signature against the trusted keys. */
export function validatePlugin(manifest: Record<string, unknown>, options: ValidationOptions): PluginValidation {
  const { errors, warnings } = checkManifest(manifest, options.strandVersion);
  const signature = checkSignature(manifest, options, errors, warnings);
  const shown = (field: string) => (typeof manifest[field] === "string" ? (manifest[field] as string) : null);
  return { valid: errors.length === 0, name: shown("name"), version: shown("version"), plugin_type: shown("plugin_type"), errors, warnings, signature };
}

function checkSignature(manifest: Record<string, unknown>, options: ValidationOptions, errors: ManifestProblem[], warnings: ManifestProblem[]): SignatureVerdict {
  const raw = manifest.signature;
  const signHint = "sign it with `strand plugin sign manifest.json --key KEY_FILE` (make a key with `strand plugin keygen`)";
  if (raw === undefined || raw === null) {
    if (options.allowUnsigned === false) errors.push({ field: "signature", message: "the manifest is not signed, and this check requires a signature", suggestion: signHint });
    else warnings.push({ field: "signature", message: "the manifest is not signed: nothing shows who made it or that it is unchanged", suggestion: signHint });
    return NO_SIGNATURE;
  }
  if (typeof raw !== "object" || Array.isArray(raw)) {
    errors.push({ field: "signature", message: "signature must be an object {algorithm, public_key, value, key_id?}", suggestion: signHint });
    return { ...NO_SIGNATURE, present: true };
  }
  const given = raw as Record<string, unknown>;
  const before = errors.length;
  const keyId = typeof given.key_id === "string" && given.key_id !== "" ? given.key_id : null;
  if (given.key_id !== undefined && typeof given.key_id !== "string") errors.push({ field: "signature.key_id", message: "signature.key_id must be a string", suggestion: "give the key's label as a string, or leave key_id out" });
  if (given.algorithm !== SIGNATURE_ALGORITHM) {
    errors.push({
      field: "signature.algorithm",
      message: given.algorithm === undefined ? "signature.algorithm is missing" : `signature.algorithm ${JSON.stringify(given.algorithm)} is not supported`,
      suggestion: `plugin signatures are "${SIGNATURE_ALGORITHM}"; sign again with \`strand plugin sign\``,
    });
  }
  const publicKeyText = typeof given.public_key === "string" ? given.public_key : null;
  const publicKey = publicKeyText === null ? null : decodeKeyBytes(publicKeyText, 32);
  if (!publicKey) {
    errors.push({
      field: "signature.public_key",
      message: publicKeyText === null ? "signature.public_key is missing" : "signature.public_key is not an Ed25519 public key (32 bytes in standard base64)",
      suggestion: "give the signer's public key in base64, as `strand plugin keygen` prints it",
    });
  }
  const valueText = typeof given.value === "string" ? given.value : null;
  const value = valueText === null ? null : decodeKeyBytes(valueText, 64);
  if (!value) {
    errors.push({
      field: "signature.value",
      message: valueText === null ? "signature.value is missing" : "signature.value is not an Ed25519 signature (64 bytes in standard base64)",
      suggestion: signHint,
    });
  }
  for (const key of Object.keys(given)) {
    if (!["algorithm", "public_key", "value", "key_id"].includes(key)) warnings.push({ field: `signature.${key}`, message: `signature.${key} is not a signature field; it is ignored`, suggestion: "a signature has algorithm, public_key, value and optionally key_id" });
  }
  const verdict: SignatureVerdict = { present: true, verified: false, trusted: false, key_id: keyId, public_key: publicKeyText };
  if (errors.length > before || !publicKey || !value) return verdict;

  let message: Uint8Array;
  try {
    message = signedBytes(manifest);
  } catch (problem) {
    if (!(problem instanceof CanonicalJsonError)) throw problem;
    errors.push({ field: "signature", message: `the manifest has no canonical form to check the signature against: ${problem.message}`, suggestion: "use plain JSON values (no lone surrogates, at most 64 levels of nesting)" });
    return verdict;
  }
  if (!verifyBytes(value, message, publicKey)) {
    errors.push({
      field: "signature.value",
      message: "the signature does not match the manifest: a field was changed after signing, or it was not made with the key in signature.public_key",
      suggestion: "do not install a plugin whose manifest changed after signing; if you changed it yourself, sign it again with `strand plugin sign`",
    });
    return verdict;
  }
  verdict.verified = true;
  const trusted = options.trustedKeys.find((candidate) => sameBytes(candidate.key, publicKey));
  if (!trusted) {
    const sameLabel = keyId ? options.trustedKeys.find((candidate) => candidate.id === keyId) : undefined;
    errors.push({
      field: "signature.public_key",
      message: `the signature matches, but its key ${base64(publicKey)} is not a trusted key${sameLabel ? ` (the trusted key labelled "${keyId}" is a different key)` : ""}`,
      suggestion: `if you trust the plugin's author, add the key to ${TRUSTED_KEYS_VARIABLE} on the service, to trusted_keys in the request, or pass it to \`strand plugin verify --trusted-key\``,
    });
    return verdict;
  }
  verdict.trusted = true;
  if (trusted.id) {
    if (keyId && keyId !== trusted.id) warnings.push({ field: "signature.key_id", message: `signature.key_id "${keyId}" differs from the trusted key's label "${trusted.id}"`, suggestion: "key ids are only labels (trust follows the key itself); sign again with the same label to avoid confusion" });
    verdict.key_id = trusted.id;
  }
  return verdict;
}
