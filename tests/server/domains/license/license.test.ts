/**
 * License endpoints and `strand license`: the resolution order with Ed25519-signed commercial licenses
 * (upload, expiry, tampering), the same status on the command line.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getPublicKeyAsync, keygenAsync, signAsync } from "@noble/ed25519";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson, resolveLicense, type LicenseTerms } from "../../../../src/license/license.js";
import { runStrand } from "../../../support/strand-cli.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import { licensePlacesFrom } from "../../../../src/server/settings.js";

let service: TestService;
let env: NodeJS.ProcessEnv;
let secretKey: Uint8Array;
let home: string;

async function licenseText(terms: LicenseTerms, key = secretKey): Promise<string> {
  const signature = Buffer.from(await signAsync(Buffer.from(canonicalJson(terms)), key)).toString("base64");
  return JSON.stringify({ license: terms, signature });
}

beforeAll(async () => {
  secretKey = (await keygenAsync()).secretKey;
  home = mkdtempSync(join(tmpdir(), "strand-license-"));
  env = { SERVICE_CONFIG_DIR: join(home, "config"), SERVICE_LICENSE_PUBLIC_KEY: Buffer.from(await getPublicKeyAsync(secretKey)).toString("hex"), HOME: home };
  service = await startTestService({ env, rateLimit: 0 });
});
afterAll(() => service.close());

describe("license", () => {
  it("is the embedded academic license when no file exists", async () => {
    const status = await (await fetch(`${service.url}/api/license`)).json();
    expect(status).toMatchObject({ type: "academic", valid: true, source: "embedded", contact: expect.stringContaining("@") });
  });

  it("accepts an uploaded license signed with the trusted key and installs it; refuses tampered, foreign and expired ones", async () => {
    const terms: LicenseTerms = { type: "commercial", licensee: "Genome Core Facility", issued_at: "2026-01-01T00:00:00.000Z", expires_at: "2099-01-01T00:00:00.000Z" };
    const good = await licenseText(terms);
    const upload = async (license_data: unknown) => fetch(`${service.url}/api/license/upload`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ license_data }) });

    const tampered = JSON.stringify({ ...JSON.parse(good), license: { ...terms, licensee: "Someone Else" } });
    const refused = await upload(tampered);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: "BAD_REQUEST", detail: expect.stringContaining("signature does not match") });
    const foreign = await upload(await licenseText(terms, (await keygenAsync()).secretKey));
    expect(foreign.status).toBe(400);
    const expired = await upload(await licenseText({ ...terms, expires_at: "2020-01-01T00:00:00.000Z" }));
    expect(await expired.json()).toMatchObject({ detail: expect.stringContaining("expired") });
    expect(((await (await upload(undefined)).json()) as { code: string }).code).toBe("MISSING_FIELD");

    const accepted = await upload(good);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ type: "commercial", valid: true, licensee: "Genome Core Facility" });
    const installed = (await (await fetch(`${service.url}/api/license`)).json()) as Record<string, unknown>;
    expect(installed).toMatchObject({ type: "commercial", source: "config" });
    // No server path in the API's view or in a refusal.
    expect(JSON.stringify([installed, await (await upload(tampered)).json()])).not.toContain(home);
  });

  it("resolves SERVICE_LICENSE first, then the configuration directory, then the legacy path", async () => {
    const dir = mkdtempSync(join(tmpdir(), "strand-license-order-"));
    const base = { SERVICE_LICENSE_PUBLIC_KEY: env.SERVICE_LICENSE_PUBLIC_KEY, SERVICE_CONFIG_DIR: join(dir, "config"), HOME: dir };
    const terms = (licensee: string): LicenseTerms => ({ type: "commercial", licensee, issued_at: "2026-01-01T00:00:00.000Z" });
    mkdirSync(join(dir, "config"), { recursive: true });
    writeFileSync(join(dir, "config", "license.json"), await licenseText(terms("from config dir")));
    writeFileSync(join(dir, "explicit.json"), await licenseText(terms("from SERVICE_LICENSE")));
    expect((await resolveLicense(licensePlacesFrom({ ...base, SERVICE_LICENSE: join(dir, "explicit.json") }))).licensee).toBe("from SERVICE_LICENSE");
    expect((await resolveLicense(licensePlacesFrom(base))).licensee).toBe("from config dir");
  });

  it("strand license shows the same status on the command line", async () => {
    const result = await runStrand(["license", "--json"], { env: { SERVICE_CONFIG_DIR: join(home, "nothing"), SERVICE_LICENSE: undefined } });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, command: "license", data: { type: "academic", valid: true }, findings: [] });
  });
});
