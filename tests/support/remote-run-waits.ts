/** Waiting in the remote-run tests: for a run of a team service to end, and for a condition on the cluster's side. */
import type { TeamService } from "./team-service.js";

/** The run's view once it has ended (completed, failed or cancelled); throws with the last view after `timeoutMs`. */
export async function settledRun(service: TeamService, id: string, timeoutMs = 180_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await service.call("user", "GET", `/api/runs/${id}`);
    if (["completed", "failed", "cancelled"].includes(String(run.body.status))) return run.body;
    if (Date.now() > deadline) throw new Error(`run ${id} did not end: ${run.text}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Waits until `check` holds; after `timeoutMs` throws with what was awaited and, when given, what `seen` says now. */
export async function waitUntil(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000, seen?: () => Promise<string> | string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${seen ? `: ${await seen()}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
