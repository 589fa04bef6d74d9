/**
 * What the service benchmarks share: where the package is, their `--name value` options, and starting
 * `strand serve` as its own process with its log in a file (as under a service manager: a pipe to a busy
 * benchmark process would slow the service down).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The package's root folder. */
export const ROOT = join(fileURLToPath(import.meta.url), "..", "..");

/** The `strand` program. */
export const STRAND_BIN = join(ROOT, "bin", "strand.js");

/** The value of `--name value` on the benchmark's command line. */
export function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** Starts `strand serve -p 0` (rate limit off) and resolves with its address once it is serving. */
export async function startService(env: Record<string, string>, logFile: string): Promise<{ url: string; child: ChildProcess }> {
  const log = openSync(logFile, "w");
  const child = spawn(process.execPath, [STRAND_BIN, "serve", "-p", "0"], { env: { ...process.env, SERVICE_RATE_LIMIT: "0", ...env }, stdio: ["ignore", "ignore", log] });
  closeSync(log);
  let exited: number | null | undefined;
  child.once("exit", (code) => (exited = code));
  for (let waited = 0; waited < 30_000; waited += 50) {
    const match = /serving on (http:\/\/\S+) /.exec(readFileSync(logFile, "utf8"));
    if (match) return { url: match[1]!, child };
    if (exited !== undefined) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill("SIGTERM");
  throw new Error(`strand serve did not start (exit ${exited}): ${readFileSync(logFile, "utf8")}`);
}
