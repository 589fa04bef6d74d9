/**
 * Helpers of the AI endpoint tests: a service's AI settings pointing at a local protocol server, JSON posts,
 * the user text of a recorded Anthropic request, and waiting for a run to end as its team-mode owner.
 */
import type { ProtocolServer, RecordedRequest } from "../../../support/ai-protocol-servers.js";
import type { TestService } from "../../../support/service-harness.js";
import type { TeamService } from "../../../support/team-service.js";

/** The AI settings that point a service at a local Anthropic-protocol server. */
export const aiEnv = (server: ProtocolServer): Record<string, string> => ({ SERVICE_AI_PROVIDER: "anthropic", SERVICE_AI_API_KEY: "test-key", SERVICE_AI_API_URL: server.baseUrl, SERVICE_AI_MODEL: "claude-test" });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answer fields freely
type Answer = any;

/** A JSON POST to the service; the answer's status and parsed body. */
export async function postJson(service: TestService, path: string, body: unknown): Promise<{ status: number; body: Answer }> {
  const response = await fetch(`${service.url}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

/** The text of a recorded Anthropic request's user messages. */
export function promptOf(request: RecordedRequest): string {
  const messages = request.body.messages as { role: string; content: string | { type: string; text?: string }[] }[];
  return messages
    .filter((message) => message.role === "user")
    .map((message) => (typeof message.content === "string" ? message.content : message.content.map((part) => part.text ?? "").join("")))
    .join("\n");
}

/** Polls a team-mode run as `who` until it has ended; its final status. */
export async function waitForRunAs(team: TeamService, id: string, who: "user" | "other" = "user"): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const run = await team.call(who, "GET", `/api/runs/${id}`);
    const status = run.body.status as string;
    if (["completed", "failed", "cancelled"].includes(status)) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`run ${id} did not end`);
}
