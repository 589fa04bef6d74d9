/**
 * The copilot in team mode, against a local Ollama-protocol server (`OLLAMA_HOST`): another user's session,
 * run or pipeline is 404 before any stream and the model is never called; the caller's own run brings the
 * run tools (bound to that run only) and its pipeline's graph reaches the model; each user lists only their
 * own sessions; viewers may read but not ask.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProtocolServer, type ProtocolServer } from "../../../support/ai-protocol-servers.js";
import { sseEvents } from "../../../support/ai-drafts.js";
import { startTeamService, TRIVIAL_PIPELINE, trivialPipeline, type TeamService } from "../../../support/team-service.js";

describe("the chat copilot in team mode through a local Ollama-protocol server", () => {
  let ollama: ProtocolServer;
  let team: TeamService;
  let userSession: string;
  let userRun: string;
  let othersPipeline: string;

  beforeAll(async () => {
    ollama = await startProtocolServer("ollama");
    team = await startTeamService({ env: { OLLAMA_HOST: ollama.origin, OLLAMA_MODEL: "llama-test" } });
    ollama.script({ text: "Hello, I can help with your pipelines." });
    const first = await team.call("user", "POST", "/api/chat/send/json", { body: { message: "hello copilot" } });
    expect(first.status).toBe(200);
    userSession = first.body.session_id as string;
    const run = await team.call("user", "POST", "/api/runs", { body: { toml_content: TRIVIAL_PIPELINE } });
    userRun = run.body.id as string;
    await team.service.supervisor.whenFinished(userRun);
    const pipeline = await team.call("other", "POST", "/api/pipelines", { body: { toml_content: trivialPipeline("others-private") } });
    othersPipeline = pipeline.body.id as string;
  }, 60_000);
  afterAll(async () => {
    await team?.close();
    await ollama?.close();
  });

  it("answers 404 for another user's session, run or pipeline before any stream, without calling the model", async () => {
    const before = ollama.requests.length;
    const attempts: ["user" | "other", Record<string, unknown>][] = [
      ["other", { message: "continue", session_id: userSession }],
      ["other", { message: "why did it fail?", run_id: userRun }],
      ["user", { message: "explain this pipeline", context: { pipeline_id: othersPipeline } }],
    ];
    for (const [who, body] of attempts) {
      for (const path of ["/api/chat/send", "/api/chat/send/json"]) {
        const answer = await team.call(who, "POST", path, { body });
        expect(answer.status, `${path} ${JSON.stringify(body)}`).toBe(404);
        expect(answer.body.code).toBe("NOT_FOUND");
        expect(answer.headers.get("content-type")).toContain("application/json");
      }
    }
    // Administrators read runs, but a conversation stays its owner's.
    expect((await team.call("admin", "POST", "/api/chat/send", { body: { message: "peek", session_id: userSession } })).status).toBe(404);
    expect((await team.call("other", "GET", `/api/chat/sessions/${userSession}/messages`)).status).toBe(404);
    expect((await team.call("other", "DELETE", `/api/chat/sessions/${userSession}`)).status).toBe(404);
    expect(ollama.requests.length).toBe(before);
    // Nothing was added to the user's session.
    const own = await team.call("user", "GET", `/api/chat/sessions/${userSession}/messages`);
    expect((own.body.messages as unknown[]).length).toBe(2);
  });

  it("offers the run tools for the caller's own run and streams the reply as token deltas over the Ollama protocol", async () => {
    ollama.script({ toolCalls: [{ name: "get_run_status", args: {} }] }, { text: "The run finished: its one job wrote hi.txt." });
    const index = ollama.requests.length;
    const response = await fetch(`${team.url}/api/chat/send`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${team.tokens.user}` },
      body: JSON.stringify({ message: "How did my run go?", run_id: userRun, session_id: userSession }),
    });
    expect(response.status).toBe(200);
    const events = sseEvents(await response.text());
    const result = events.find((entry) => entry.event === "tool_result")!;
    expect(result.data).toMatchObject({ name: "get_run_status", refused: false });
    expect(result.data.summary).toContain(userRun);
    expect(events.filter((entry) => entry.event === "text").length).toBeGreaterThan(3);
    expect(events.at(-1)).toMatchObject({ event: "done", data: { session_id: userSession, rounds: 1 } });
    const offered = (ollama.requests[index]!.body.tools as { function: { name: string } }[]).map((entry) => entry.function.name).sort();
    expect(offered).toEqual(["get_job_log", "get_run_diagnostics", "get_run_status", "lookup_domain", "lookup_package", "pipeline_graph", "validate_pipeline"]);
    // The earlier exchange of the session went with it.
    expect(JSON.stringify(ollama.requests[index]!.body.messages)).toContain("hello copilot");
  });

  it("gives the model the graph of a saved pipeline the caller may read", async () => {
    const mine = await team.call("user", "POST", "/api/pipelines", { body: { toml_content: trivialPipeline("mine-for-chat") } });
    ollama.script({ text: "It has one rule, hi." });
    const index = ollama.requests.length;
    const answer = await team.call("user", "POST", "/api/chat/send/json", { body: { message: "what does this do?", context: { pipeline_id: mine.body.id } } });
    expect(answer.status).toBe(200);
    const prompt = JSON.stringify((ollama.requests[index]!.body.messages as unknown[]).at(-1));
    expect(prompt).toContain("mine-for-chat");
    expect(prompt).toContain('\\"rule\\":\\"hi\\"');
  });

  it("lists each caller's own sessions only; a viewer may read but not ask", async () => {
    const own = await team.call("user", "GET", "/api/chat/sessions");
    expect((own.body.items as { id: string }[]).map((item) => item.id)).toContain(userSession);
    const others = await team.call("other", "GET", "/api/chat/sessions");
    expect(others.status).toBe(200);
    expect((others.body.items as { id: string }[]).map((item) => item.id)).not.toContain(userSession);
    expect((await team.call("viewer", "GET", "/api/chat/sessions")).status).toBe(200);
    const asked = await team.call("viewer", "POST", "/api/chat/send", { body: { message: "hi" } });
    expect(asked.status).toBe(403);
  });
});
