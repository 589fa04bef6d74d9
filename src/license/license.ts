/**
 * License status, resolved in the specified order: the file named by `SERVICE_LICENSE`, `license.json` in
 * the platform configuration directory (`SERVICE_CONFIG_DIR`, default `~/.config/strand`), the legacy
 * `~/.strand/license.json`, else the embedded academic license. A commercial license is a JSON document
 * `{license: {...}, signature}` whose signature is Ed25519 over the canonical JSON of `license`. The status
 * is informational and never restricts anything. Shared by the service and `strand license`.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { verifyAsync } from "@noble/ed25519";

/** The vendor's public key; `SERVICE_LICENSE_PUBLIC_KEY` (hex) replaces it for private deployments and tests. */
const VENDOR_PUBLIC_KEY = "0531ba0942e40dc046bfaf5a14860bf65b60d8bc585bf62625bba1f0fea7de86";
export const LICENSE_CONTACT = "licensing@strand.example";

/** Where a license status came from, in the resolution order (docs/guide/operating.md). */
export type LicenseSource = "env" | "config" | "legacy" | "embedded" | "file";

export interface LicenseStatus {
  type: "academic" | "commercial";
  valid: boolean;
  licensee: string | null;
  expires_at: string | null;
  /** Which place decided: `SERVICE_LICENSE`, the configuration directory, the legacy path, the embedded license (or a file `strand license FILE` checks). */
  source: LicenseSource;
  /** The license file read, accepted or not (null when none was); shown on the command line, never by the API. */
  path: string | null;
  contact: string;
  /** Why a license file was not accepted (the embedded license applies then); it never names the file. */
  problem?: string;
}

export interface LicenseTerms {
  type: "commercial";
  licensee: string;
  issued_at: string;
  expires_at?: string;
  seats?: number;
}

const EMBEDDED: LicenseStatus = { type: "academic", valid: true, licensee: null, expires_at: null, source: "embedded", path: null, contact: LICENSE_CONTACT };

/** JSON with keys in sorted order at every level: the bytes the signature covers. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * Where the license is looked for and what checks it: `SERVICE_LICENSE`, the configuration folder
 * (`SERVICE_CONFIG_DIR`) and `SERVICE_LICENSE_PUBLIC_KEY`, as the settings table reads them.
 */
export interface LicensePlaces {
  /** A license file to use first (SERVICE_LICENSE). */
  file?: string;
  /** The platform configuration folder; its `license.json` is the second place. */
  configDir: string;
  /** The Ed25519 public key (hex) signatures are checked against (default: the vendor's). */
  publicKey?: string;
}

/** The candidate license files with their source, in resolution order. */
export function licenseFiles(places: LicensePlaces): { source: LicenseSource; path: string }[] {
  const files: { source: LicenseSource; path: string }[] = [];
  if (places.file) files.push({ source: "env", path: places.file });
  files.push({ source: "config", path: join(places.configDir, "license.json") });
  files.push({ source: "legacy", path: join(homedir(), ".strand", "license.json") });
  return files;
}

/** Checks a license document (text) read from `from`; never throws. */
export async function checkLicenseText(text: string, from: { source: LicenseSource; path: string | null }, places: Pick<LicensePlaces, "publicKey">, now = new Date()): Promise<LicenseStatus> {
  const refuse = (problem: string): LicenseStatus => ({ ...EMBEDDED, path: from.path, problem });
  let document: { license?: LicenseTerms; signature?: string };
  try {
    document = JSON.parse(text) as typeof document;
  } catch {
    return refuse("not a JSON document");
  }
  const terms = document.license;
  if (!terms || typeof terms !== "object" || terms.type !== "commercial" || typeof terms.licensee !== "string") return refuse("no commercial license terms (license.type, license.licensee)");
  if (typeof document.signature !== "string" || !/^[A-Za-z0-9+/=]+$/.test(document.signature)) return refuse("no signature");
  const key = places.publicKey ?? VENDOR_PUBLIC_KEY;
  let valid = false;
  try {
    valid = await verifyAsync(Buffer.from(document.signature, "base64"), Buffer.from(canonicalJson(terms)), Buffer.from(key, "hex"));
  } catch {
    valid = false;
  }
  if (!valid) return refuse("the signature does not match (the license was changed, or signed by someone else)");
  if (terms.expires_at && !(new Date(terms.expires_at) > now)) return { ...refuse(`expired on ${terms.expires_at}`), licensee: terms.licensee, expires_at: terms.expires_at };
  return { type: "commercial", valid: true, licensee: terms.licensee, expires_at: terms.expires_at ?? null, source: from.source, path: from.path, contact: LICENSE_CONTACT };
}

/** The license status: the first license file that exists decides; none means the embedded academic license. */
export async function resolveLicense(places: LicensePlaces): Promise<LicenseStatus> {
  for (const file of licenseFiles(places)) {
    if (!existsSync(file.path)) continue;
    let text: string;
    try {
      text = readFileSync(file.path, "utf8");
    } catch (error) {
      return { ...EMBEDDED, path: file.path, problem: `the license file cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
    }
    return checkLicenseText(text, file, places);
  }
  return EMBEDDED;
}

/** Checks an uploaded license and, when valid, installs it as the configuration directory's license.json. */
export async function installLicense(text: string, places: LicensePlaces): Promise<LicenseStatus> {
  const target = join(places.configDir, "license.json");
  const status = await checkLicenseText(text, { source: "config", path: target }, places);
  if (status.type !== "commercial" || !status.valid) return status;
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(`${target}.tmp`, text);
  renameSync(`${target}.tmp`, target);
  return status;
}

/** The license status for frequent readers (health probes): resolved at most every 30 s, or after an upload. */
export class LicenseCache {
  private cached: { at: number; status: Promise<LicenseStatus> } | undefined;

  constructor(
    private readonly places: LicensePlaces,
    private readonly ttlMs = 30_000,
  ) {}

  get(): Promise<LicenseStatus> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > this.ttlMs) this.cached = { at: now, status: resolveLicense(this.places) };
    return this.cached.status;
  }

  /** Forgets the cached status (a license was installed). */
  invalidate(): void {
    this.cached = undefined;
  }
}
