/**
 * Optimize against a local Anthropic-protocol server: only saved pipelines the caller may read (a translate
 * draft id is NOT_FOUND, another user's pipeline too, before any model call); the model's pipeline is checked
 * by the engine and the constraints, with one correction round, and rejected when it still fails; the changes
 * come from comparing the rules before and after, the model's list only giving reasons; the estimates say
 * "unknown" before any run and come from the durations of a real completed run after one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_HISTORY } from "../../../../src/server/domains/ai/optimize.js";
import { expectData } from "../../../../src/client/service-client.js";
import { startProtocolServer, type ProtocolServer } from "../../../support/ai-protocol-servers.js";
import { closeAfterRuns, serviceClient, waitForRun } from "../../../support/run-client.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import { assertBuilt } from "../../../support/strand-cli.js";
import { startTeamService, type TeamService } from "../../../support/team-service.js";
import { aiEnv, postJson, promptOf } from "./ai-requests.js";

assertBuilt();

/** A saved pipeline to tune: a slow first rule and a quick second one. */
const PIPELINE = `[workflow]
name = "tune-me"
version = "1.0.0"

[[rules]]
name = "slow"
output = ["slow.txt"]
shell = "sleep 0.4; echo slow > {output[0]}"
resources = { threads = 1, memory = "1G" }

[[rules]]
name = "fast"
input = ["slow.txt"]
output = ["fast.txt"]
shell = "cat {input[0]} > {output[0]}"
`;

/** The model's proposal: more threads and less memory for the slow rule. */
const TUNED = PIPELINE.replace('resources = { threads = 1, memory = "1G" }', 'resources = { threads = 2, memory = "512M" }');
/** A proposal the engine rejects: a dependency on a rule that does not exist. */
const BROKEN = TUNED.replace('input = ["slow.txt"]', 'input = ["slow.txt"]\ndepends_on = ["slowe"]');

const reply = (toml: string) => `\`\`\`toml
${toml}\`\`\`

## Changes
- slow: threads 1 → 2 (the longest rule and it is CPU-bound)
- slow: memory 1G → 512M (it writes a few bytes)
- fast: threads 1 → 4 (listed but not made)
`;

describe("optimize through a local Anthropic-protocol server", () => {
  let anthropic: ProtocolServer;
  let service: TestService;
  let pipelineId: string;

  beforeAll(async () => {
    anthropic = await startProtocolServer("anthropic");
    service = await startTestService({ rateLimit: 0, env: aiEnv(anthropic) });
    pipelineId = expectData(await serviceClient(service.url).POST("/api/pipelines", { body: { toml_content: PIPELINE } })).id;
  });
  afterAll(async () => {
    if (service) await closeAfterRuns(service);
    await anthropic?.close();
  });

  it("refuses a translate draft id (and an unknown id) with NOT_FOUND, without calling the model", async () => {
    anthropic.script({ text: `\`\`\`toml\n${PIPELINE}\`\`\`` });
    const draft = await postJson(service, "/api/ai/translate", { intent: "a slow step then a copy, to be optimised" });
    expect(draft.status).toBe(200);
    const before = anthropic.requests.length;
    const answer = await postJson(service, "/api/ai/optimize", { pipeline_id: draft.body.pipeline_id, goal: "speed" });
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe("NOT_FOUND");
    expect((await postJson(service, "/api/ai/optimize", { pipeline_id: "no-such-pipeline", goal: "cost" })).status).toBe(404);
    expect(anthropic.requests.length).toBe(before);
  });

  it("rejects an optimized pipeline the engine refuses after one correction round, naming the findings", async () => {
    anthropic.script({ text: reply(BROKEN) }, { text: reply(BROKEN) });
    const before = anthropic.requests.length;
    const { status, body } = await postJson(service, "/api/ai/optimize", { pipeline_id: pipelineId, goal: "speed" });
    expect(status).toBe(400);
    expect(body.code).toBe("AI_OPTIMIZE_ERROR");
    expect(body.message).toContain("slowe");
    expect(anthropic.requests.length).toBe(before + 2);
    // The correction round carried the engine's finding back to the model.
    expect(promptOf(anthropic.requests[before + 1]!)).toContain("slowe");
  });

  it("rejects a proposal above the constraints", async () => {
    anthropic.script({ text: reply(TUNED) }, { text: reply(TUNED) });
    const { status, body } = await postJson(service, "/api/ai/optimize", { pipeline_id: pipelineId, goal: "speed", constraints: { max_threads: 1 } });
    expect(status).toBe(400);
    expect(body.code).toBe("AI_OPTIMIZE_ERROR");
    expect(body.message).toMatch(/CONSTRAINT_THREADS: rule 'slow' asks for 2 threads; the limit is 1/);
  });

  it("compares the rules before and after, and says the time effect is unknown before any run", async () => {
    anthropic.script({ text: reply(BROKEN) }, { text: reply(TUNED) });
    const before = anthropic.requests.length;
    const { status, body } = await postJson(service, "/api/ai/optimize", { pipeline_id: pipelineId, goal: "speed", constraints: { max_threads: 4, max_memory: "2G" } });
    expect(status).toBe(200);
    const prompt = promptOf(anthropic.requests[before]!);
    expect(prompt).toContain('name = "slow"');
    expect(prompt).toContain("at most 4 threads per rule");
    expect(prompt).toMatch(/no run of this pipeline has ended yet/);
    expect(body.optimized_toml).toBe(TUNED);
    expect(body.rounds).toBe(2);
    expect(body.changes).toEqual([
      { rule: "slow", field: "threads", before: "threads = 1", after: "threads = 2", rationale: "the longest rule and it is CPU-bound", expected_impact: NO_HISTORY },
      { rule: "slow", field: "memory", before: "memory = 1G", after: "memory = 512M", rationale: "it writes a few bytes", expected_impact: "each job reserves 512 MB less memory" },
    ]);
    expect(body.estimated).toMatchObject({ time_saved: NO_HISTORY, basis: "none", runs_considered: 0 });
    expect(body.estimated.memory_reduction).toBe("512 MB less declared memory per job of the changed rules (slow 1 GB → 512 MB)");
    expect(body.validation.valid).toBe(true);
    expect(body.validation.warnings).toEqual(expect.arrayContaining([expect.objectContaining({ code: "AI_CHANGE_NOT_MADE" })]));
    // A proposal: the saved pipeline is unchanged.
    const saved = expectData(await serviceClient(service.url).GET("/api/pipelines/{id}", { params: { path: { id: pipelineId } } }));
    expect(saved.toml_content).toBe(PIPELINE);
  });

  it("estimates the time saved from the durations of a real completed run of the pipeline", async () => {
    const run = expectData(await serviceClient(service.url).POST("/api/runs", { body: { pipeline_id: pipelineId } })).id;
    expect((await waitForRun(service.url, run)).status).toBe("completed");
    anthropic.script({ text: reply(TUNED) });
    const before = anthropic.requests.length;
    const { status, body } = await postJson(service, "/api/ai/optimize", { pipeline_id: pipelineId, goal: "speed" });
    expect(status).toBe(200);
    expect(promptOf(anthropic.requests[before]!)).toMatch(/slow: threads 1, memory 1G, environment [^,]+, mean duration \d/);
    expect(body.estimated).toMatchObject({ basis: "run_history", runs_considered: 1 });
    expect(body.estimated.time_saved).toMatch(/^up to [\d.]+ s of job time per run \(slow: 1 → 2 threads, [\d.]+ s on average\)$/);
    expect(body.estimated.method).toMatch(/mean duration/);
    expect(body.changes[0].expected_impact).toMatch(/^took [\d.]+ s on average over 1 run\(s\); with 1 → 2 threads about [\d.]+ s/);
  });
});

describe("optimize in team mode", () => {
  let anthropic: ProtocolServer;
  let team: TeamService;

  beforeAll(async () => {
    anthropic = await startProtocolServer("anthropic");
    team = await startTeamService({ env: aiEnv(anthropic) });
  });
  afterAll(async () => {
    await team?.close();
    await anthropic?.close();
  });

  it("answers 404 for another user's private pipeline and never calls the model", async () => {
    const saved = await team.call("user", "POST", "/api/pipelines", { body: { toml_content: PIPELINE } });
    expect(saved.status).toBe(201);
    const foreign = await team.call("other", "POST", "/api/ai/optimize", { body: { pipeline_id: saved.body.id, goal: "cost" } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("NOT_FOUND");
    expect(anthropic.requests).toHaveLength(0);
  });
});
