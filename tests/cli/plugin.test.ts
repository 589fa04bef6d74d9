/**
 * `strand plugin keygen|sign|verify`: the round trip (a key file of mode 0600, a signed manifest that
 * verifies with the printed public key), a tampered manifest (exit 1 naming the signature), an untrusted
 * key, field problems with the same messages as the service, --json envelopes, and usage errors (exit 2).
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { PluginValidation } from "../../src/engine/plugins/validate-plugin.js";
import { parseEnvelope, runStrand, stackTraceLines, tempFolder, type TempFolder } from "../support/strand-cli.js";

const folders: TempFolder[] = [];
afterAll(() => folders.forEach((folder) => folder.remove()));

function folder(files: Record<string, string> = {}): TempFolder {
  const made = tempFolder(files, "strand-plugin-");
  folders.push(made);
  return made;
}

const MANIFEST = {
  name: "bwa-align",
  version: "0.3.0",
  plugin_type: "rule",
  description: "Short-read alignment with BWA-MEM",
  author: "Ada Lovelace",
  license: "Apache-2.0",
  entry: "rules/bwa.toml",
  strand_version: ">=0.1.0",
  permissions: ["read-inputs", "write-outputs"],
};
/** No trusted keys from the environment of whoever runs the tests. */
const ENV = { SERVICE_PLUGIN_TRUSTED_KEYS: undefined };

describe("strand plugin: keygen → sign → verify", () => {
  it("signs with a new key and verifies with its public key; a tampered field fails with exit 1", async () => {
    const dir = folder({ "plugin.json": JSON.stringify(MANIFEST, null, 2) });
    const keygen = await runStrand(["plugin", "keygen", "-o", dir.path("author.key"), "--key-id", "ada-2026"], { env: ENV });
    expect(keygen.exitCode, keygen.stderr).toBe(0);
    const publicKey = keygen.stdout.trim();
    expect(Buffer.from(publicKey, "base64")).toHaveLength(32);
    expect(keygen.stderr).toContain("mode 0600");
    expect(statSync(dir.path("author.key")).mode & 0o777).toBe(0o600);
    const keyFile = JSON.parse(readFileSync(dir.path("author.key"), "utf8")) as Record<string, string>;
    expect(keyFile).toMatchObject({ algorithm: "ed25519", key_id: "ada-2026", public_key: publicKey });

    // An existing key file is never overwritten by accident.
    const again = await runStrand(["plugin", "keygen", "-o", dir.path("author.key")], { env: ENV });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain("--force");

    const sign = await runStrand(["plugin", "sign", dir.path("plugin.json"), "--key", dir.path("author.key")], { env: ENV });
    expect(sign.exitCode, sign.stderr).toBe(0);
    expect(sign.stdout).toContain(`with key ${publicKey}`);
    const signed = JSON.parse(readFileSync(dir.path("plugin.json"), "utf8")) as Record<string, unknown>;
    expect(signed.signature).toMatchObject({ algorithm: "ed25519", public_key: publicKey, key_id: "ada-2026" });

    const verified = await runStrand(["plugin", "verify", dir.path("plugin.json"), "--trusted-key", publicKey], { env: ENV });
    expect(verified.exitCode, verified.stdout).toBe(0);
    expect(verified.stdout).toContain("bwa-align 0.3.0 (rule) is valid, signed by trusted key ada-2026");

    // The same key trusted through the service's variable.
    const viaEnvironment = await runStrand(["plugin", "verify", dir.path("plugin.json")], { env: { SERVICE_PLUGIN_TRUSTED_KEYS: `ada:${publicKey}` } });
    expect(viaEnvironment.exitCode).toBe(0);

    writeFileSync(dir.path("plugin.json"), JSON.stringify({ ...signed, permissions: ["read-inputs", "write-outputs", "network"] }, null, 2));
    const tampered = await runStrand(["plugin", "verify", dir.path("plugin.json"), "--trusted-key", publicKey], { env: ENV });
    expect(tampered.exitCode).toBe(1);
    expect(tampered.stdout).toContain("is not valid (1 error; signature does not verify)");
    expect(tampered.stdout).toContain("error [PLUGIN_ERROR]");
    expect(tampered.stdout).toContain("signature.value: the signature does not match the manifest");
    expect(tampered.stdout).toContain("hint: do not install a plugin whose manifest changed after signing");
    expect(stackTraceLines(tampered.stdout + tampered.stderr)).toEqual([]);

    const json = await runStrand(["plugin", "verify", dir.path("plugin.json"), "--trusted-key", publicKey, "--json"], { env: ENV });
    const envelope = parseEnvelope<PluginValidation>(json);
    expect(envelope).toMatchObject({ ok: false, command: "plugin verify", data: { valid: false, signature: { present: true, verified: false } } });
    expect(envelope.findings).toEqual([expect.objectContaining({ code: "PLUGIN_ERROR", severity: "error", message: expect.stringContaining("signature.value:") })]);
  });

  it("says a correct signature by an untrusted key is not enough (exit 1), and --require-signature refuses unsigned", async () => {
    const dir = folder({ "plugin.json": JSON.stringify(MANIFEST) });
    expect((await runStrand(["plugin", "keygen", "-o", dir.path("k")], { env: ENV })).exitCode).toBe(0);
    expect((await runStrand(["plugin", "sign", dir.path("plugin.json"), "--key", dir.path("k"), "-o", dir.path("signed.json")], { env: ENV })).exitCode).toBe(0);
    const untrusted = await runStrand(["plugin", "verify", dir.path("signed.json")], { env: ENV });
    expect(untrusted.exitCode).toBe(1);
    expect(untrusted.stdout).toContain("signed by an untrusted key");
    expect(untrusted.stdout).toContain("signature.public_key: the signature matches, but its key");

    const unsigned = await runStrand(["plugin", "verify", dir.path("plugin.json")], { env: ENV });
    expect(unsigned.exitCode).toBe(0);
    expect(unsigned.stdout).toContain("is valid, unsigned");
    expect(unsigned.stdout).toContain("warning [PLUGIN_WARNING]");
    expect((await runStrand(["plugin", "verify", dir.path("plugin.json"), "--require-signature"], { env: ENV })).exitCode).toBe(1);
  });

  it("refuses to sign a manifest with field errors, listing them with their fixes", async () => {
    const dir = folder({ "plugin.json": JSON.stringify({ ...MANIFEST, name: "BWA Align", version: "v1" }) });
    await runStrand(["plugin", "keygen", "-o", dir.path("k")], { env: ENV });
    const sign = await runStrand(["plugin", "sign", dir.path("plugin.json"), "--key", dir.path("k")], { env: ENV });
    expect(sign.exitCode).toBe(1);
    expect(sign.stderr).toContain("was not signed: fix these first");
    expect(sign.stderr).toContain('name: name "BWA Align" is not a lowercase slug');
    expect(sign.stderr).toContain('"bwa-align"');
    expect(sign.stderr).toContain("version:");
    expect(JSON.parse(readFileSync(dir.path("plugin.json"), "utf8"))).not.toHaveProperty("signature");
  });

  it("gives usage errors exit 2 and a bad manifest exit 1, without stack traces", async () => {
    const dir = folder({ "list.json": "[1]", "broken.json": "{" });
    expect((await runStrand(["plugin", "keygen", "-o", dir.path("k.key")], { env: ENV })).exitCode).toBe(0);
    const cases: [string[], number, string][] = [
      [["plugin"], 2, "plugin needs a subcommand"],
      [["plugin", "verfy"], 2, "unknown plugin subcommand 'verfy'"],
      [["plugin", "verify"], 2, "no manifest given"],
      [["plugin", "sign", dir.path("list.json")], 2, "no key given"],
      [["plugin", "verify", dir.path("missing.json")], 2, "ENOENT"],
      [["plugin", "verify", dir.path("list.json"), "--trusted-key", "xyz"], 2, "--trusted-key 1 is not an Ed25519 public key"],
      [["plugin", "verify", dir.path("list.json")], 1, "is not a JSON object"],
      [["plugin", "verify", dir.path("broken.json")], 1, "is not JSON"],
    ];
    for (const [args, code, message] of cases) {
      const result = await runStrand(args, { env: ENV });
      expect(result.exitCode, args.join(" ")).toBe(code);
      expect(result.stderr + result.stdout, args.join(" ")).toContain(message);
      expect(stackTraceLines(result.stderr)).toEqual([]);
    }
    // --json with -o -: the envelope alone on stdout, the signed manifest inside it.
    dir.write({ "ok.json": JSON.stringify(MANIFEST) });
    const piped = parseEnvelope<{ signed: Record<string, unknown> }>(await runStrand(["plugin", "sign", dir.path("ok.json"), "--key", dir.path("k.key"), "-o", "-", "--json"], { env: ENV }));
    expect(piped).toMatchObject({ ok: true, command: "plugin sign", data: { signed: { name: "bwa-align", signature: { algorithm: "ed25519" } } } });
    const keygen = parseEnvelope<{ public_key: string }>(await runStrand(["plugin", "keygen", "-o", dir.path("j.key"), "--json"], { env: ENV }));
    expect(keygen).toMatchObject({ ok: true, command: "plugin keygen", data: { key_id: null } });
    expect(Buffer.from(keygen.data.public_key, "base64")).toHaveLength(32);
  });
});
