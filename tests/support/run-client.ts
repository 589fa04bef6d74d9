/**
 * A small client for the runs API in tests: JSON requests, and waiting (by polling the real endpoint)
 * until a run reaches a state or a condition holds.
 */
import type { LooseJson } from "./loose-json.js";

export interface Answer {
  status: number;
  body: LooseJson;
}

/** A JSON request to the service. */
export async function call(base: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as LooseJson };
}

/** Polls `GET /api/runs/{id}` until `accept` holds (default: the run has ended); fails after `timeoutMs`. */
export async function waitForRun(base: string, id: string, accept: (run: LooseJson) => boolean = ended, timeoutMs = 30_000): Promise<LooseJson> {
  const deadline = Date.now() + timeoutMs;
  let last: LooseJson = {};
  while (Date.now() < deadline) {
    last = (await call(base, "GET", `/api/runs/${id}`)).body;
    if (accept(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`run ${id} did not reach the expected state in ${timeoutMs} ms; last seen: ${JSON.stringify(last).slice(0, 1500)}`);
}

/** Whether a run is in a terminal state. */
export function ended(run: LooseJson): boolean {
  return ["completed", "failed", "cancelled"].includes(run.status as string);
}

/** A pipeline of rules given as `name → shell command`, each depending on the one before through a file. */
export function chainPipeline(name: string, commands: [string, string][], extra = ""): string {
  const rules = commands.map(([rule, shell], index) => {
    const input = index === 0 ? "" : `input = ["${commands[index - 1]![0]}.txt"]\n`;
    return `[[rules]]\nname = "${rule}"\n${input}output = ["${rule}.txt"]\nshell = '''\n${shell}\n'''\n`;
  });
  return `[workflow]\nname = "${name}"\nversion = "1.0.0"\n${extra}\n${rules.join("\n")}`;
}
