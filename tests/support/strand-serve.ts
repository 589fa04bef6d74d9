/**
 * `strand serve` as its own process for tests: started on a free port (`-p 0`), ready once it prints its
 * "serving on" line, stopped with SIGTERM (a clean stop) or SIGKILL (a crash).
 */
import { chmodSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, resolve } from "node:path";
import { execa, type ResultPromise } from "execa";
import { STRAND_BIN, strandEnv } from "./strand-cli.js";

export interface Served {
  url: string;
  process: ResultPromise;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | undefined>;
}

/**
 * The environment a sandboxed service started by a root test process needs: a shared (team or hpc) one may
 * start as root (SERVICE_ALLOW_ROOT=1, unless the test sets it itself), and the sandboxes, which then run as
 * an unprivileged account, must pass through the test's temporary folders to the data folder.
 */
function asRootTest(env: Record<string, string>): Record<string, string> {
  const shared = ["team", "hpc"].includes(env.SERVICE_MODE ?? "");
  if (process.getuid?.() !== 0 || !(shared || env.SERVICE_SANDBOX === "bwrap")) return env;
  const data = env.SERVICE_DATA_DIR;
  if (data) {
    for (let folder = dirname(resolve(data)); folder.startsWith(`${tmpdir()}/`) || folder.startsWith("/var/tmp/"); folder = dirname(folder)) {
      try {
        chmodSync(folder, statSync(folder).mode | 0o001);
      } catch {
        // not made yet: the service makes it
      }
    }
  }
  return shared ? { SERVICE_ALLOW_ROOT: "1", ...env } : env;
}

/** Starts `strand serve -p 0` with extra environment and waits until it serves; `prefix` runs it through another program (setpriv). */
export async function serve(env: Record<string, string>, options: { prefix?: string[] } = {}): Promise<Served> {
  env = asRootTest(env);
  const prefix = options.prefix ?? [];
  const command = [...prefix, "node", STRAND_BIN, "serve", "-p", "0"];
  const child = execa(command[0]!, command.slice(1), { env: strandEnv(env), reject: false });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /serving on (http:\/\/\S+) /.exec(seen);
      if (match) resolve(match[1]!);
    });
    void child.then((result) => reject(new Error(`strand serve exited ${result.exitCode}: ${seen}`)));
  });
  return {
    url,
    process: child,
    stop: async () => {
      child.kill("SIGTERM");
      return (await child).exitCode;
    },
  };
}
