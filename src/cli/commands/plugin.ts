/**
 * `strand plugin keygen|sign|verify`: Ed25519 keys for plugin authors, signing a manifest (the RFC 8785
 * canonical JSON of everything but its `signature`), and the same check `POST /api/plugins/validate` makes,
 * with the same messages: exit 0 when valid, 1 when not, 2 for usage errors.
 */
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { EngineError, makeFinding, type Finding } from "../../engine/findings.js";
import { engineVersion } from "../../engine/version.js";
import type { ManifestProblem } from "../../engine/plugins/manifest.js";
import { configuredTrustedKeys, readPublicKey, validatePlugin, type PluginValidation, type TrustedKey } from "../../engine/plugins/validate-plugin.js";
import { base64, decodeKeyBytes, generateKeyPair, publicKeyOf, sameBytes, signManifest } from "../../engine/plugins/signature.js";
import { optionValue, optionValues, UsageError, type OptionSpec, type ParsedArgs } from "../args.js";
import { printEnvelope } from "../json-envelope.js";
import { displayPath, formatFinding, paint, type Output } from "../print.js";
import type { Command } from "./command.js";
import { readSetting } from "../../server/settings.js";

const SUBCOMMANDS = ["keygen", "sign", "verify"] as const;
/** Where `keygen` writes the secret key when no -o is given. */
const DEFAULT_KEY_FILE = "strand-plugin.key";

const PLUGIN_OPTIONS: OptionSpec[] = [
  { name: "output", short: "o", value: true, placeholder: "FILE", description: `keygen: the secret key file (default ${DEFAULT_KEY_FILE}); sign: where the signed manifest goes (default: in place; - for stdout)` },
  { name: "key", short: "k", value: true, placeholder: "KEY_FILE", description: "sign: the secret key file keygen wrote" },
  { name: "key-id", value: true, placeholder: "ID", description: "keygen, sign: a label for the key, written into signatures (default: the key file's)" },
  { name: "force", description: "keygen: replace an existing key file" },
  { name: "trusted-key", value: true, repeat: true, placeholder: "BASE64", description: "verify: a public key to trust (repeatable; SERVICE_PLUGIN_TRUSTED_KEYS is trusted too)" },
  { name: "require-signature", description: "verify: an unsigned manifest is invalid (default: valid with a warning)" },
];

/** The key file keygen writes: JSON, readable by its owner only. */
interface KeyFile {
  algorithm: "ed25519";
  key_id?: string;
  public_key: string;
  secret_key: string;
}

function keygen(args: ParsedArgs, output: Output): number {
  const file = resolve(optionValue(args, "output") ?? DEFAULT_KEY_FILE);
  if (existsSync(file) && !args.flags.has("force")) throw new UsageError(`${displayPath(output, file)} exists; it may hold a key you still need`, "choose another file with -o, or add --force to replace it");
  const keyId = optionValue(args, "key-id");
  const { secretKey, publicKey } = generateKeyPair();
  const document: KeyFile = { algorithm: "ed25519", ...(keyId ? { key_id: keyId } : {}), public_key: base64(publicKey), secret_key: base64(secretKey) };
  writeFileSync(file, JSON.stringify(document, null, 2) + "\n", { mode: 0o600 });
  // The mode applies only to a new file: a replaced one keeps its mode unless set again.
  chmodSync(file, 0o600);
  if (args.flags.has("json")) {
    printEnvelope(output, "plugin keygen", { ok: true, data: { public_key: document.public_key, key_id: keyId ?? null, key_file: displayPath(output, file) } });
    return 0;
  }
  output.out(document.public_key);
  output.err(`secret key written to ${displayPath(output, file)} (mode 0600): keep it private; the line above is the public key to publish and trust`);
  return 0;
}

function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new EngineError("PLUGIN_ERROR", `the ${what} ${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`, { suggestion: "plugin manifests are JSON documents" });
  }
}

function readManifest(args: ParsedArgs, output: Output): { path: string; manifest: Record<string, unknown> } {
  const given = args.positionals[1];
  if (given === undefined) throw new UsageError("no manifest given", "name the manifest file, e.g. strand plugin verify plugin.json");
  const path = resolve(given);
  const manifest = readJsonFile(path, "manifest");
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) throw new EngineError("PLUGIN_ERROR", `${displayPath(output, path)} is not a JSON object`, { suggestion: 'a manifest is an object such as {"name": "my-plugin", "version": "1.0.0", …}' });
  return { path, manifest: manifest as Record<string, unknown> };
}

function readKeyFile(path: string, output: Output): { secretKey: Uint8Array; keyId?: string } {
  const document = readJsonFile(path, "key file") as Partial<KeyFile> | null;
  const secretKey = typeof document?.secret_key === "string" ? decodeKeyBytes(document.secret_key, 32) : null;
  if (!secretKey) throw new EngineError("PLUGIN_ERROR", `${displayPath(output, path)} holds no Ed25519 secret key (secret_key: 32 bytes in base64)`, { suggestion: "use a key file written by strand plugin keygen" });
  const stated = typeof document?.public_key === "string" ? decodeKeyBytes(document.public_key, 32) : null;
  if (stated && !sameBytes(stated, publicKeyOf(secretKey))) throw new EngineError("PLUGIN_ERROR", `${displayPath(output, path)} is damaged: its public_key does not belong to its secret_key`, { suggestion: "restore the key file from a backup, or make a new key with strand plugin keygen" });
  if ((statSync(path).mode & 0o077) !== 0) output.err(`strand plugin sign: warning: ${displayPath(output, path)} can be read by other users; run chmod 600 on it`);
  return { secretKey, keyId: typeof document?.key_id === "string" ? document.key_id : undefined };
}

/** A problem of the validation as a finding of the command line. */
function problemFinding(problem: ManifestProblem, severity: "error" | "warning", file: string): Finding {
  return { ...makeFinding(severity === "error" ? "PLUGIN_ERROR" : "PLUGIN_WARNING", severity, `${problem.field}: ${problem.message}`, { suggestion: problem.suggestion }), file };
}

function findingsOf(result: PluginValidation, file: string): Finding[] {
  return [...result.errors.map((problem) => problemFinding(problem, "error", file)), ...result.warnings.map((problem) => problemFinding(problem, "warning", file))];
}

function sign(args: ParsedArgs, output: Output): number {
  const keyPath = optionValue(args, "key");
  if (!keyPath) throw new UsageError("no key given", "add --key KEY_FILE (make one with strand plugin keygen)");
  const { path, manifest } = readManifest(args, output);
  const { secretKey, keyId } = readKeyFile(resolve(keyPath), output);
  // A manifest with field errors is not worth a signature: say what to fix first.
  const { signature: _old, ...unsigned } = manifest;
  const check = validatePlugin(unsigned, { strandVersion: engineVersion(), trustedKeys: [] });
  const blocking = check.errors;
  if (blocking.length > 0) {
    const findings = blocking.map((problem) => problemFinding(problem, "error", path));
    if (args.flags.has("json")) printEnvelope(output, "plugin sign", { ok: false, data: null, findings });
    output.err(`${paint(output, "red", "✗")} ${displayPath(output, path)} was not signed: fix these first`);
    for (const finding of findings) output.err(formatFinding(output, finding));
    return 1;
  }
  const signed = signManifest(manifest, secretKey, optionValue(args, "key-id") ?? keyId);
  const text = JSON.stringify(signed, null, 2) + "\n";
  const target = optionValue(args, "output") ?? path;
  const warnings = check.warnings.filter((problem) => problem.field !== "signature").map((problem) => problemFinding(problem, "warning", path));
  if (target === "-") {
    // With --json, stdout carries the envelope alone: the signed manifest travels in it.
    if (args.flags.has("json")) printEnvelope(output, "plugin sign", { ok: true, data: { manifest: "-", signature: signed.signature, signed }, findings: warnings });
    else output.out(text);
  } else {
    writeFileSync(resolve(target), text);
    if (args.flags.has("json")) printEnvelope(output, "plugin sign", { ok: true, data: { manifest: displayPath(output, resolve(target)), signature: signed.signature }, findings: warnings });
    else output.out(`${paint(output, "green", "✓")} signed ${displayPath(output, resolve(target))} with key ${(signed.signature as { public_key: string }).public_key}`);
  }
  if (!args.flags.has("json")) for (const finding of warnings) output.err(formatFinding(output, finding));
  return 0;
}

function verify(args: ParsedArgs, output: Output): number {
  // Usage errors first: a mistyped key should not wait for the manifest to be read.
  const given: TrustedKey[] = optionValues(args, "trusted-key").map((text, index) => {
    const key = readPublicKey(text, `--trusted-key ${index + 1}`);
    if (!(key instanceof Uint8Array)) throw new UsageError(key.message, "pass the base64 public key strand plugin keygen printed");
    return { id: null, key };
  });
  const { path, manifest } = readManifest(args, output);
  const configured = configuredTrustedKeys(readSetting(process.env, "SERVICE_PLUGIN_TRUSTED_KEYS", "personal"));
  for (const problem of configured.problems) output.err(`strand plugin verify: warning: ${problem.message}; it is ignored`);
  const result = validatePlugin(manifest, { strandVersion: engineVersion(), trustedKeys: [...configured.keys, ...given], allowUnsigned: !args.flags.has("require-signature") });
  const findings = findingsOf(result, path);
  if (args.flags.has("json")) {
    printEnvelope(output, "plugin verify", { ok: result.valid, data: result, findings });
    return result.valid ? 0 : 1;
  }
  const label = `${result.name ?? "(no name)"} ${result.version ?? "(no version)"}${result.plugin_type ? ` (${result.plugin_type})` : ""}`;
  const signature = result.signature;
  const how = !signature.present ? "unsigned" : signature.trusted ? `signed by trusted key ${signature.key_id ?? signature.public_key}` : signature.verified ? "signed by an untrusted key" : "signature does not verify";
  if (result.valid) output.out(`${paint(output, "green", "✓")} ${displayPath(output, path)}: ${label} is valid, ${how}`);
  else output.out(`${paint(output, "red", "✗")} ${displayPath(output, path)}: ${label} is not valid (${result.errors.length} error${result.errors.length === 1 ? "" : "s"}; ${how})`);
  for (const finding of findings) output.out(formatFinding(output, finding));
  return result.valid ? 0 : 1;
}

export const pluginCommand: Command = {
  usage:
    `strand plugin keygen [-o KEY_FILE] [--key-id ID] [--force]\n` +
    "       strand plugin sign MANIFEST.json --key KEY_FILE [-o OUT|-] [--key-id ID]\n" +
    "       strand plugin verify MANIFEST.json [--trusted-key BASE64…] [--require-signature]",
  options: PLUGIN_OPTIONS,
  async run(args, output) {
    const subcommand = args.positionals[0];
    if (subcommand === "keygen") return keygen(args, output);
    if (subcommand === "sign") return sign(args, output);
    if (subcommand === "verify") return verify(args, output);
    throw new UsageError(subcommand === undefined ? "plugin needs a subcommand" : `unknown plugin subcommand '${subcommand}'`, `use one of ${SUBCOMMANDS.join(", ")}`);
  },
};
