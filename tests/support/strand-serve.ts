/**
 * `strand serve` as its own process for tests: started on a free port (`-p 0`), ready once it prints its
 * "serving on" line, stopped with SIGTERM (a clean stop) or SIGKILL (a crash).
 */
import { execa, type ResultPromise } from "execa";
import { STRAND_BIN, strandEnv } from "./strand-cli.js";

export interface Served {
  url: string;
  process: ResultPromise;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | undefined>;
}

/** Starts `strand serve -p 0` with extra environment and waits until it serves; `prefix` runs it through another program (setpriv). */
export async function serve(env: Record<string, string>, options: { prefix?: string[] } = {}): Promise<Served> {
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
