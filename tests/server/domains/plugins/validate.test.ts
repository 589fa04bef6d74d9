/**
 * POST /api/plugins/validate in personal and team mode: field problems naming their JSON path with a fix,
 * unknown fields as warnings, and the signature verdict — trusted (configured or sent), tampered in any
 * single field (valid false, naming the signature), signed by an untrusted key, unsigned (valid with a
 * warning, or an error with allow_unsigned false), malformed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair, signManifest } from "../../../../src/engine/plugins/signature.js";
import type { PluginValidation } from "../../../../src/engine/plugins/validate-plugin.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import { startTeamService, type TeamService } from "../../../support/team-service.js";

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const trusted = generateKeyPair();
const stranger = generateKeyPair();

/** A manifest with every field right, for strand 0.1.x. */
const GOOD = {
  name: "fastp-trim",
  version: "1.2.0",
  plugin_type: "rule",
  description: "Adapter and quality trimming with fastp",
  author: "Ada Lovelace <ada@example.org>",
  license: "MIT OR Apache-2.0",
  entry: "rules/fastp.toml",
  strand_version: ">=0.1.0 <1.0.0",
  permissions: ["read-inputs", "write-outputs"],
  homepage: "https://example.org/fastp-trim",
  repository: "https://github.com/example/fastp-trim",
};

let service: TestService;
let team: TeamService;

beforeAll(async () => {
  const env = { ...process.env, SERVICE_PLUGIN_TRUSTED_KEYS: ` release:${b64(trusted.publicKey)} , not-a-key ` };
  // strand_version is checked against the version the service runs as.
  service = await startTestService({ env, rateLimit: 0, version: "0.1.4" });
  team = await startTeamService({ env, version: "0.1.4" });
});
afterAll(async () => {
  await service.close();
  await team.close();
});

async function validate(body: unknown): Promise<{ status: number; body: PluginValidation & { code?: string; message?: string } }> {
  const response = await fetch(`${service.url}/api/plugins/validate`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as PluginValidation & { code?: string } };
}

const fields = (problems: { field: string }[]) => problems.map((problem) => problem.field);

describe("POST /api/plugins/validate: the signature", () => {
  it("accepts a manifest signed with a key from SERVICE_PLUGIN_TRUSTED_KEYS, naming the key by its label", async () => {
    const { status, body } = await validate({ manifest: signManifest(GOOD, trusted.secretKey) });
    expect(status).toBe(200);
    expect(body).toMatchObject({ valid: true, name: "fastp-trim", version: "1.2.0", plugin_type: "rule", errors: [] });
    expect(body.signature).toEqual({ present: true, verified: true, trusted: true, key_id: "release", public_key: b64(trusted.publicKey) });
    // The configuration entry that is not a key is reported, not fatal.
    expect(body.warnings).toEqual([expect.objectContaining({ field: "SERVICE_PLUGIN_TRUSTED_KEYS", message: expect.stringContaining("entry 2") })]);
  });

  it("is not valid when any single field changed after signing, and says the signature does not match", async () => {
    const signed = signManifest(GOOD, trusted.secretKey);
    const changes: Record<string, unknown>[] = [
      { name: "fastp-trimmer" },
      { version: "1.2.1" },
      { plugin_type: "executor" },
      { description: "Something else" },
      { author: "Mallory" },
      { license: "MIT" },
      { entry: "rules/evil.toml" },
      { strand_version: "*" },
      { permissions: ["read-inputs", "write-outputs", "network"] },
      { homepage: "https://evil.example" },
      { repository: "https://github.com/evil/fastp-trim" },
      { extra: "added" },
    ];
    for (const change of changes) {
      const { status, body } = await validate({ manifest: { ...signed, ...change } });
      expect(status).toBe(200);
      expect(body.valid, JSON.stringify(change)).toBe(false);
      expect(body.signature).toMatchObject({ present: true, verified: false, trusted: false });
      expect(body.errors).toEqual([{ field: "signature.value", message: expect.stringContaining("does not match the manifest"), suggestion: expect.stringContaining("sign it again") }]);
    }
    // A removed field too.
    const { description: _gone, ...without } = signed;
    expect((await validate({ manifest: without })).body.valid).toBe(false);
  });

  it("covers the signature's own metadata: another key_id or public key breaks it", async () => {
    const signed = signManifest(GOOD, trusted.secretKey, "release");
    const signature = signed.signature as Record<string, string>;
    const relabelled = await validate({ manifest: { ...signed, signature: { ...signature, key_id: "someone" } } });
    // key_id is a label outside the signed bytes: the signature still verifies; the trusted label wins.
    expect(relabelled.body).toMatchObject({ valid: true, signature: { key_id: "release" } });
    expect(fields(relabelled.body.warnings)).toContain("signature.key_id");
    const swapped = await validate({ manifest: { ...signed, signature: { ...signature, public_key: b64(stranger.publicKey) } } });
    expect(swapped.body.valid).toBe(false);
    expect(fields(swapped.body.errors)).toEqual(["signature.value"]);
  });

  it("is not valid when signed by a key nobody trusts, until the request trusts it", async () => {
    const manifest = signManifest(GOOD, stranger.secretKey, "stranger");
    const untrusted = await validate({ manifest });
    expect(untrusted.body.valid).toBe(false);
    expect(untrusted.body.signature).toEqual({ present: true, verified: true, trusted: false, key_id: "stranger", public_key: b64(stranger.publicKey) });
    expect(untrusted.body.errors).toEqual([
      { field: "signature.public_key", message: expect.stringContaining("not a trusted key"), suggestion: expect.stringContaining("SERVICE_PLUGIN_TRUSTED_KEYS") },
    ]);

    const asList = await validate({ manifest, trusted_keys: [b64(stranger.publicKey)] });
    expect(asList.body).toMatchObject({ valid: true, signature: { trusted: true, key_id: "stranger" } });
    const asMap = await validate({ manifest, trusted_keys: { "their-ci": b64(stranger.publicKey) } });
    expect(asMap.body).toMatchObject({ valid: true, signature: { trusted: true, key_id: "their-ci" } });
    // A label that names another key is pointed out.
    const confusing = await validate({ manifest, trusted_keys: { stranger: b64(trusted.publicKey) } });
    expect(confusing.body.errors[0]!.message).toContain('labelled "stranger" is a different key');
  });

  it("accepts an unsigned manifest with a warning, or refuses it with allow_unsigned false", async () => {
    const lenient = await validate({ manifest: GOOD });
    expect(lenient.body).toMatchObject({ valid: true, signature: { present: false, verified: false, trusted: false, key_id: null, public_key: null } });
    expect(lenient.body.warnings).toContainEqual({ field: "signature", message: expect.stringContaining("not signed"), suggestion: expect.stringContaining("strand plugin sign") });
    const strict = await validate({ manifest: GOOD, allow_unsigned: false });
    expect(strict.body.valid).toBe(false);
    expect(fields(strict.body.errors)).toEqual(["signature"]);
  });

  it("names each malformed part of a signature", async () => {
    const { body } = await validate({ manifest: { ...GOOD, signature: { algorithm: "rsa", public_key: "abc", value: 42, extra: 1 } } });
    expect(body.valid).toBe(false);
    expect(fields(body.errors)).toEqual(["signature.algorithm", "signature.public_key", "signature.value"]);
    expect(fields(body.warnings)).toContain("signature.extra");
    expect((await validate({ manifest: { ...GOOD, signature: "deadbeef" } })).body.errors).toEqual([expect.objectContaining({ field: "signature" })]);
  });

  it("answers PLUGIN_ERROR for a trusted key that is not a key, and MISSING_FIELD without a manifest", async () => {
    const badKey = await validate({ manifest: GOOD, trusted_keys: { mine: "not base64!" } });
    expect(badKey.status).toBe(400);
    expect(badKey.body).toMatchObject({ code: "PLUGIN_ERROR", message: expect.stringContaining("trusted_keys.mine") });
    const missing = await validate({});
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("MISSING_FIELD");
    expect((await validate({ manifest: [] })).body.code).toBe("BAD_REQUEST");
  });
});

describe("POST /api/plugins/validate: the fields", () => {
  it("names each wrong field with what is wrong and how to fix it", async () => {
    const { body } = await validate({
      manifest: {
        name: "My Plugin",
        version: "1.2",
        plugin_type: "reporter",
        description: 7,
        license: "Apache 2",
        entry: "../outside/run.sh",
        strand_version: ">=9.0.0",
        permissions: ["network", "root", "network"],
        homepage: "http://example.org",
        repository: "not a url",
        enviroment: "conda",
      },
    });
    expect(body.valid).toBe(false);
    const byField = Object.fromEntries(body.errors.map((problem) => [problem.field, problem]));
    expect(Object.keys(byField).sort()).toEqual(["description", "entry", "homepage", "license", "name", "permissions[1]", "plugin_type", "repository", "strand_version", "version"].sort());
    expect(byField.name).toMatchObject({ message: 'name "My Plugin" is not a lowercase slug', suggestion: expect.stringContaining('"my-plugin"') });
    expect(byField.version).toMatchObject({ message: expect.stringContaining("not a semantic version"), suggestion: expect.stringContaining('"1.2.0"') });
    expect(byField.plugin_type).toMatchObject({ suggestion: expect.stringContaining('did you mean "report"?') });
    expect(byField.description!.message).toBe("description must be a string, not a number");
    expect(byField.license!.message).toContain('"Apache 2"');
    expect(byField.entry!.message).toContain('leaves the plugin folder with ".."');
    expect(byField.strand_version!.message).toBe("the plugin needs strand >=9.0.0; this is strand 0.1.4");
    expect(byField["permissions[1]"]!.suggestion).toContain("read-inputs");
    expect(byField.homepage!.suggestion).toBe("use https://example.org");
    expect(byField.repository!.message).toContain("is not a URL");
    // Warnings: the repeated permission, the missing author, the unknown (misspelt) field.
    expect(body.warnings).toContainEqual({ field: "permissions[2]", message: 'permissions[2] repeats "network"', suggestion: "list each permission once" });
    expect(body.warnings).toContainEqual(expect.objectContaining({ field: "author", message: "author is missing" }));
    expect(body.warnings).toContainEqual(expect.objectContaining({ field: "enviroment", suggestion: 'did you mean "environment"?' }));
  });

  it("requires name, version, plugin_type and an entry or command template", async () => {
    const { body } = await validate({ manifest: {} });
    expect(fields(body.errors)).toEqual(["name", "version", "plugin_type", "entry"]);
    expect(body.errors[0]).toEqual({ field: "name", message: "name is missing", suggestion: 'add "name": a lowercase slug such as "my-plugin"' });
    const withTemplate = await validate({ manifest: { name: "t", version: "0.1.0", plugin_type: "executor", command_template: "tool {input} > {output}" } });
    expect(withTemplate.body.valid).toBe(true);
    expect(fields(withTemplate.body.warnings).filter((field) => field !== "SERVICE_PLUGIN_TRUSTED_KEYS")).toEqual(["description", "author", "license", "strand_version", "signature"]);
  });

  it("warns of deprecated and unrecognised SPDX ids and refuses malformed expressions", async () => {
    const deprecated = await validate({ manifest: { ...GOOD, license: "GPL-3.0" } });
    expect(deprecated.body.valid).toBe(true);
    expect(deprecated.body.warnings).toContainEqual(expect.objectContaining({ field: "license", suggestion: "write GPL-3.0-only (or GPL-3.0-or-later)" }));
    const misspelt = await validate({ manifest: { ...GOOD, license: "Apache-2" } });
    expect(misspelt.body.warnings).toContainEqual(expect.objectContaining({ field: "license", suggestion: expect.stringContaining('"Apache-2.0"') }));
    const own = await validate({ manifest: { ...GOOD, license: "(MIT AND LicenseRef-Lab) OR GPL-2.0-or-later WITH Classpath-exception-2.0" } });
    expect(own.body.warnings.filter((problem) => problem.field === "license")).toEqual([]);
    for (const bad of ["MIT AND", "MIT Apache-2.0", "(MIT", "OR MIT"]) {
      const answer = await validate({ manifest: { ...GOOD, license: bad } });
      expect(fields(answer.body.errors), bad).toEqual(["license"]);
    }
  });
});

describe("POST /api/plugins/validate in team mode", () => {
  it("is open to every signed-in role (it changes nothing) and closed to anonymous callers", async () => {
    const manifest = signManifest(GOOD, trusted.secretKey);
    for (const who of ["viewer", "user", "admin"] as const) {
      const answer = await team.call(who, "POST", "/api/plugins/validate", { body: { manifest } });
      expect(answer.status, who).toBe(200);
      expect(answer.body).toMatchObject({ valid: true, signature: { trusted: true } });
    }
    const tampered = await team.call("viewer", "POST", "/api/plugins/validate", { body: { manifest: { ...manifest, version: "9.9.9" } } });
    expect(tampered.body).toMatchObject({ valid: false, errors: [{ field: "signature.value" }] });
    expect((await team.call("anonymous", "POST", "/api/plugins/validate", { body: { manifest } })).status).toBe(401);
  });
});
