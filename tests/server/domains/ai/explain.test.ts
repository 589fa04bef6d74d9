/**
 * Explain against a local Anthropic-protocol server: a real run whose job writes to stderr and exits 3; the
 * prompt carries that job's stderr tail, exit code and rendered command; the answer's citations are the
 * pieces the scripted explanation really quotes; runs without failures and failed providers are refused;
 * and in team mode another user's run is NOT_FOUND before any model call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainPipeline, closeAfterRuns, serviceClient, waitForRun } from "../../../support/run-client.js";
import { startProtocolServer, type ProtocolServer, type RecordedRequest } from "../../../support/ai-protocol-servers.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import { assertBuilt } from "../../../support/strand-cli.js";
import { startTeamService, type TeamService } from "../../../support/team-service.js";
import { expectData } from "../../../../src/client/service-client.js";
import { citationsOf, type ExplainedFailure } from "../../../../src/server/domains/ai/explain.js";
import { aiEnv, postJson, promptOf, waitForRunAs } from "./ai-requests.js";

assertBuilt();

/** A pipeline whose second job complains on stderr and exits 3. */
const FAILING = chainPipeline("explain-me", [
  ["prepare", "echo prepared > {output[0]}"],
  ["align", "echo 'loading index ref.fa' >&2; echo '[E::bwa_idx_load] fail to locate the index files' >&2; exit 3"],
]);

/** A run of `toml`, once it has ended. */
async function endedRun(base: string, toml: string): Promise<string> {
  const id = expectData(await serviceClient(base).POST("/api/runs", { body: { toml_content: toml } })).id;
  await waitForRun(base, id);
  return id;
}

/** What the scripted model answers when nothing is queued: it quotes a stderr line, the exit code and the command it was shown, and makes up a line. */
function quotingReply(request: RecordedRequest) {
  const shown = /## Its command\n(`{3,})\n([\s\S]*?)\n\1/.exec(promptOf(request))?.[2] ?? "";
  return {
    text: [
      "The index of the reference could not be found:",
      "> [E::bwa_idx_load] fail to locate the index files",
      "> [E::made_up] a line that is not in the log",
      `The job exited with exit code 3 after running \`${shown}\`.`,
      "",
      "1. Build the index first (bwa index ref.fa).",
    ].join("\n"),
  };
}

describe("explain through a local Anthropic-protocol server", () => {
  let anthropic: ProtocolServer;
  let service: TestService;
  let failedRun: string;

  beforeAll(async () => {
    anthropic = await startProtocolServer("anthropic", quotingReply);
    service = await startTestService({ rateLimit: 0, env: aiEnv(anthropic) });
    failedRun = await endedRun(service.url, FAILING);
  });
  afterAll(async () => {
    if (service) await closeAfterRuns(service);
    await anthropic?.close();
  });

  it("puts the failed job's stderr tail, exit code and command in the prompt, and cites what the explanation quotes", async () => {
    const before = anthropic.requests.length;
    const { status, body: answer } = await postJson(service, "/api/ai/explain", { run_id: failedRun });
    expect(status).toBe(200);

    expect(anthropic.requests).toHaveLength(before + 1);
    const prompt = promptOf(anthropic.requests[before]!);
    const shownCommand = /## Its command\n(`{3,})\n([\s\S]*?)\n\1/.exec(prompt)?.[2] ?? "";
    expect(prompt).toContain("loading index ref.fa");
    expect(prompt).toContain("[E::bwa_idx_load] fail to locate the index files");
    expect(prompt).toContain("exit code: 3");
    expect(prompt).toContain("job: align");
    expect(shownCommand).toContain("exit 3");
    expect(shownCommand).toContain("fail to locate the index files");
    expect(JSON.stringify(anthropic.requests[before]!.body.system)).toContain("failure analyst");

    expect(answer.run_id).toBe(failedRun);
    expect(answer.job).toBe("align");
    expect(answer.summary).toContain("fail to locate the index files");
    expect(answer.provider).toEqual({ provider: "anthropic", model: "claude-test" });
    expect(answer.failures).toHaveLength(1);
    expect(answer.failures[0]).toMatchObject({ job: "align", rule: "align", exit_code: 3, command: shownCommand });
    expect(answer.failures[0].stderr_tail).toEqual(["loading index ref.fa", "[E::bwa_idx_load] fail to locate the index files"]);
    expect(answer.failures[0].diagnosis.pattern).toEqual(expect.any(String));
    // Citations come from matching, not from the model: the made-up line and the unquoted line are not there.
    expect(answer.citations).toEqual([
      { kind: "stderr", job: "align", text: "[E::bwa_idx_load] fail to locate the index files" },
      { kind: "exit_code", job: "align", text: "exit code 3" },
      { kind: "command", job: "align", text: shownCommand },
    ]);
    expect(answer.root_cause).toMatchObject({ rule: "align", job: "align", error_type: answer.failures[0].diagnosis.pattern });
    expect(answer.fix_suggestion).toMatchObject({ automated: false, action: answer.failures[0].diagnosis.suggestions[0] });
  });

  it("cites nothing the explanation does not quote, and asks for another language when told", async () => {
    anthropic.script({ text: "Something went wrong in the alignment step; the log does not say more." });
    const before = anthropic.requests.length;
    const { body: answer } = await postJson(service, "/api/ai/explain", { run_id: failedRun, job: "align", language: "Deutsch" });
    expect(answer.citations).toEqual([]);
    expect(promptOf(anthropic.requests[before]!)).toContain("Write your explanation in Deutsch");
  });

  it("refuses a run without failed jobs, or a job that did not fail, without calling the model", async () => {
    const completed = await endedRun(service.url, chainPipeline("all-good", [["fine", "echo fine > {output[0]}"]]));
    const before = anthropic.requests.length;
    const { status, body } = await postJson(service, "/api/ai/explain", { run_id: completed });
    expect(status).toBe(400);
    expect(body.code).toBe("BAD_REQUEST");
    expect(body.message).toMatch(/no failed jobs/);
    const wrongJob = await postJson(service, "/api/ai/explain", { run_id: failedRun, job: "prepare" });
    expect(wrongJob.status).toBe(400);
    expect(wrongJob.body.message).toMatch(/did not fail/);
    expect((await postJson(service, "/api/ai/explain", { run_id: "no-such-run" })).status).toBe(404);
    expect(anthropic.requests.length).toBe(before);
  });

  it("answers AI_EXPLAIN_ERROR naming the provider's failure when the chain fails", async () => {
    anthropic.script({ status: 401, errorMessage: "invalid x-api-key for the test" });
    const { status, body } = await postJson(service, "/api/ai/explain", { run_id: failedRun });
    expect(status).toBe(400);
    expect(body.code).toBe("AI_EXPLAIN_ERROR");
    expect(body.message).toMatch(/anthropic/);
    expect(body.message).toMatch(/invalid x-api-key for the test/);
  });
});

describe("explain in team mode", () => {
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

  it("answers 404 for another user's run and never calls the model; the owner gets the explanation", async () => {
    const created = await team.call("user", "POST", "/api/runs", { body: { toml_content: FAILING } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await waitForRunAs(team, id);
    const before = anthropic.requests.length;
    const foreign = await team.call("other", "POST", "/api/ai/explain", { body: { run_id: id } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("NOT_FOUND");
    expect(anthropic.requests.length).toBe(before);

    anthropic.script({ text: "> [E::bwa_idx_load] fail to locate the index files\nThe index is missing." });
    const own = await team.call("user", "POST", "/api/ai/explain", { body: { run_id: id } });
    expect(own.status).toBe(200);
    expect(own.body.citations).toEqual([{ kind: "stderr", job: "align", text: "[E::bwa_idx_load] fail to locate the index files" }]);
  });
});

describe("citations found by matching", () => {
  const evidence: ExplainedFailure = {
    job: "sort.s1",
    rule: "sort",
    exit_code: 3,
    command: "samtools sort -@ 4 -o sorted/s1.bam aligned/s1.sam",
    stderr_tail: ["ok", "[bam_sort_core] truncated file. Aborted", "samtools sort: failed to read header from \"aligned/s1.sam\""],
    diagnosis: { pattern: "truncated_file", category: "data", likely_cause: "", suggestions: [] },
  };

  it("finds stderr lines quoted in code or as part of a line, the exit code by its number, and pieces of the command", () => {
    const summary = "The input was cut short (`truncated file. Aborted`); samtools exited with status 3 while running `samtools sort -@ 4 -o sorted/s1.bam`.";
    expect(citationsOf(summary, evidence)).toEqual([
      { kind: "stderr", job: "sort.s1", text: "[bam_sort_core] truncated file. Aborted" },
      { kind: "exit_code", job: "sort.s1", text: "exit code 3" },
      { kind: "command", job: "sort.s1", text: evidence.command },
    ]);
  });

  it("cites no short line, no other exit code and nothing the summary does not repeat", () => {
    expect(citationsOf("It looks ok. The job ended with code 30 after a failure to read input.", evidence)).toEqual([]);
    expect(citationsOf("> samtools sort: failed to read header", evidence)).toEqual([{ kind: "stderr", job: "sort.s1", text: evidence.stderr_tail[2] }]);
  });
});
