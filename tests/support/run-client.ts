/**
 * Helpers for the runs API in tests: the typed client (`serviceClient`), waiting (by polling the real
 * endpoint with it) until a run reaches a state or a condition holds, and `call()` for the requests the
 * typed client cannot express.
 */
import { createServiceClient, expectData, type components, type ServiceClient } from "../../src/client/service-client.js";
import type { LooseJson } from "./loose-json.js";
import type { TestService } from "./service-harness.js";

/** A run as `GET /api/runs/{id}` answers it. */
export type RunDetail = components["schemas"]["RunDetail"];

/** The typed client for the service at `base` (requests and answers checked against its OpenAPI document). */
/** Cancels the service's unfinished runs, waits until every engine has ended (before its data folder goes), and closes it. */
export async function closeAfterRuns(service: TestService): Promise<void> {
  const client = serviceClient(service.url);
  const page = await service.store.listRuns({ limit: 500 });
  for (const run of page.items) if (!ended(run)) await client.POST("/api/runs/{id}/cancel", { params: { path: { id: run.id } } });
  for (const run of page.items) await service.supervisor.whenFinished(run.id);
  await service.close();
}

export function serviceClient(base: string): ServiceClient {
  return createServiceClient({ baseUrl: base });
}

export interface Answer {
  status: number;
  body: LooseJson;
}

/**
 * An untyped JSON request, for what the typed client cannot express: bodies of the wrong shape (wrong types,
 * missing required fields, unknown fields or values), undocumented paths or methods, raw query strings.
 * Every well-formed request goes through `serviceClient(base)` instead.
 */
export async function call(base: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as LooseJson };
}

/**
 * Polls `GET /api/runs/{id}` with the typed client until `accept` holds (default: the run has ended); fails
 * after `timeoutMs`, and at once when the service refuses the request (a 4xx other than 429).
 */
export async function waitForRun(base: string, id: string, accept: (run: RunDetail) => boolean = ended, timeoutMs = 30_000): Promise<RunDetail> {
  const client = serviceClient(base);
  const deadline = Date.now() + timeoutMs;
  let last: unknown = {};
  while (Date.now() < deadline) {
    const answer = await client.GET("/api/runs/{id}", { params: { path: { id } } });
    if (answer.data !== undefined) {
      last = answer.data;
      if (accept(answer.data)) return answer.data;
    } else {
      last = { status: answer.response.status, error: answer.error };
      const status = answer.response.status;
      if (status >= 400 && status < 500 && status !== 429) throw new Error(`run ${id} cannot be read: ${status} ${JSON.stringify(answer.error)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`run ${id} did not reach the expected state in ${timeoutMs} ms; last seen: ${JSON.stringify(last).slice(0, 1500)}`);
}

/** The service's metrics as JSON (the client reads JSON answers only; the Prometheus text is for scrapers). */
export async function metricsOf(client: ServiceClient): Promise<components["schemas"]["Metrics"]> {
  return expectData(await client.GET("/api/metrics"));
}

/** Whether a run is in a terminal state. */
export function ended(run: { status: string }): boolean {
  return ["completed", "failed", "cancelled"].includes(run.status);
}

/** A run's working folder on the server (every run the service creates has one). */
export function workspaceOf(run: { id: string; workspace: string | null }): string {
  if (run.workspace === null) throw new Error(`run ${run.id} has no workspace`);
  return run.workspace;
}

/** A pipeline of rules given as `name → shell command`, each depending on the one before through a file. */
export function chainPipeline(name: string, commands: [string, string][], extra = ""): string {
  const rules = commands.map(([rule, shell], index) => {
    const input = index === 0 ? "" : `input = ["${commands[index - 1]![0]}.txt"]\n`;
    return `[[rules]]\nname = "${rule}"\n${input}output = ["${rule}.txt"]\nshell = '''\n${shell}\n'''\n`;
  });
  return `[workflow]\nname = "${name}"\nversion = "1.0.0"\n${extra}\n${rules.join("\n")}`;
}
