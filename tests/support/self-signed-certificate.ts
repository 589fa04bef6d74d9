/**
 * A throwaway TLS key and self-signed certificate (for localhost and 127.0.0.1, valid one day) made with the
 * `openssl` command line, for tests that need a real HTTPS server. CI installs openssl.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Makes a key and a self-signed certificate for localhost and 127.0.0.1; null when openssl is missing. */
export function selfSignedCertificate(): { key: string; cert: string } | null {
  if (spawnSync("openssl", ["version"], { stdio: "ignore" }).status !== 0) return null;
  const folder = mkdtempSync(join(tmpdir(), "strand-remote-fetch-"));
  try {
    const made = spawnSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-days", "1", "-keyout", join(folder, "key.pem"), "-out", join(folder, "cert.pem")],
      { encoding: "utf8" },
    );
    if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
    return { key: readFileSync(join(folder, "key.pem"), "utf8"), cert: readFileSync(join(folder, "cert.pem"), "utf8") };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

