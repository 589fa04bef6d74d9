/**
 * The version of the installed strand package: what `strand --version` prints, what the service reports,
 * what run records and webhooks carry, and what exported images install.
 */
import { readFileSync } from "node:fs";

let cachedVersion: string | undefined;

/** Set by scripts/bundle-engine.mjs in the one-file engine staged on remote clusters, which has no manifest beside it. */
declare const STRAND_BUNDLED_VERSION: string | undefined;

/** The version of the installed strand package, read from its manifest once per process. */
export function engineVersion(): string {
  if (cachedVersion === undefined && typeof STRAND_BUNDLED_VERSION === "string") cachedVersion = STRAND_BUNDLED_VERSION;
  if (cachedVersion === undefined) {
    // Sources (src/engine) and the build (dist/engine) both sit two folders below the manifest.
    const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: unknown };
    cachedVersion = typeof manifest.version === "string" ? manifest.version : "0.0.0";
  }
  return cachedVersion;
}
