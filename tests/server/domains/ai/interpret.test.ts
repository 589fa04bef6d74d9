/**
 * Interpret against a local Anthropic-protocol server: a real run writes a table and a gzip table; the prompt
 * lists them with their first lines (the gzip one inflated); the scripted reply's sections fill the narrative,
 * highlights (finding, significance, source file), caveats and next steps; sections the model leaves out are
 * named and left empty; a run without results is refused; another user's run is NOT_FOUND.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AI_WRITTEN_CAVEAT } from "../../../../src/server/domains/ai/interpret.js";
import { expectData } from "../../../../src/client/service-client.js";
import { startProtocolServer, type ProtocolServer } from "../../../support/ai-protocol-servers.js";
import { closeAfterRuns, serviceClient, waitForRun } from "../../../support/run-client.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import { assertBuilt } from "../../../support/strand-cli.js";
import { startTeamService, type TeamService } from "../../../support/team-service.js";
import { aiEnv, postJson, promptOf, waitForRunAs } from "./ai-requests.js";

assertBuilt();

/** Two result tables: a differential expression table and gzip-compressed counts. */
const RESULTS = `[workflow]
name = "deg-results"
version = "1.0.0"

[[rules]]
name = "deg"
output = ["results/deg.tsv"]
shell = '''
mkdir -p results && printf 'gene\\tlog2FC\\tpadj\\nBRCA1\\t2.5\\t0.001\\nGAPDH\\t0.1\\t0.9\\n' > {output[0]}
'''

[[rules]]
name = "counts"
output = ["results/counts.tsv.gz"]
shell = '''
mkdir -p results && printf 'gene\\tsample_a\\nTP53\\t12\\n' | gzip -c > {output[0]}
'''
`;

const FULL_REPLY = `## Narrative
The run produced a differential expression table (results/deg.tsv) and counts (results/counts.tsv.gz); BRCA1 stands out.

## Highlights
- BRCA1 is up-regulated (log2FC 2.5, padj 0.001) — a strong candidate worth validating (source: results/deg.tsv)
- TP53 has 12 reads in sample_a — low coverage for a single gene (results/counts.tsv.gz)

## Caveats
- Only the first lines of each file were shown.

## Suggested next
- Run a pathway enrichment on the significant genes.
- Compare the counts of the other samples.
`;

/** A run of `toml`, once it has ended. */
async function endedRun(base: string, toml: string): Promise<string> {
  const id = expectData(await serviceClient(base).POST("/api/runs", { body: { toml_content: toml } })).id;
  await waitForRun(base, id);
  return id;
}

describe("interpret through a local Anthropic-protocol server", () => {
  let anthropic: ProtocolServer;
  let service: TestService;
  let run: string;

  beforeAll(async () => {
    anthropic = await startProtocolServer("anthropic");
    service = await startTestService({ rateLimit: 0, env: aiEnv(anthropic) });
    run = await endedRun(service.url, RESULTS);
  });
  afterAll(async () => {
    if (service) await closeAfterRuns(service);
    await anthropic?.close();
  });

  it("lists the result files with their first lines in the prompt and fills every section from the reply", async () => {
    anthropic.script({ text: FULL_REPLY });
    const before = anthropic.requests.length;
    const { status, body } = await postJson(service, "/api/ai/interpret", { run_id: run, result_type: "deg" });
    expect(status).toBe(200);

    const prompt = promptOf(anthropic.requests[before]!);
    expect(prompt).toMatch(/results\/deg\.tsv \(\d+ bytes\)/);
    expect(prompt).toContain("gene\tlog2FC\tpadj");
    expect(prompt).toContain("BRCA1\t2.5\t0.001");
    // The gzip table is inflated for the model.
    expect(prompt).toContain("TP53\t12");
    expect(prompt).toMatch(/differential expression/);
    expect(JSON.stringify(anthropic.requests[before]!.body.system)).toContain("results interpreter");

    expect(body.run_id).toBe(run);
    expect(body.result_type).toBe("deg");
    expect(body.narrative).toMatch(/^The run produced a differential expression table/);
    expect(body.highlights).toEqual([
      { finding: "BRCA1 is up-regulated (log2FC 2.5, padj 0.001)", significance: "a strong candidate worth validating", supporting_evidence: "results/deg.tsv" },
      { finding: "TP53 has 12 reads in sample_a", significance: "low coverage for a single gene (results/counts.tsv.gz)", supporting_evidence: "results/counts.tsv.gz" },
    ]);
    expect(body.caveats).toEqual(["Only the first lines of each file were shown."]);
    expect(body.suggested_next).toEqual(["Run a pathway enrichment on the significant genes.", "Compare the counts of the other samples."]);
    expect(body.missing_sections).toEqual([]);
    expect(body.files).toEqual(
      expect.arrayContaining([
        { path: "results/deg.tsv", size_bytes: expect.any(Number), header: "gene\tlog2FC\tpadj" },
        { path: "results/counts.tsv.gz", size_bytes: expect.any(Number), header: "gene\tsample_a" },
      ]),
    );
    expect(body.provider).toEqual({ provider: "anthropic", model: "claude-test" });
  });

  it("says which sections the model left out, and adds the AI-written caveat only when it gave none", async () => {
    anthropic.script({ text: "## Narrative\nBRCA1 is up.\n\n## Highlights\n- BRCA1 is up — worth a look\n" });
    const { body } = await postJson(service, "/api/ai/interpret", { run_id: run });
    expect(body.result_type).toBe("general");
    expect(body.narrative).toBe("BRCA1 is up.");
    expect(body.highlights).toEqual([{ finding: "BRCA1 is up", significance: "worth a look", supporting_evidence: "" }]);
    expect(body.suggested_next).toEqual([]);
    expect(body.caveats).toEqual([AI_WRITTEN_CAVEAT]);
    expect(body.missing_sections).toEqual(["Caveats", "Suggested next"]);
  });

  it("refuses a run without results without calling the model, and answers AI_INTERPRET_ERROR when the chain fails", async () => {
    const failed = await endedRun(service.url, '[workflow]\nname = "nothing"\n\n[[rules]]\nname = "boom"\noutput = ["never.txt"]\nshell = "exit 3"\n');
    const before = anthropic.requests.length;
    const { status, body } = await postJson(service, "/api/ai/interpret", { run_id: failed });
    expect(status).toBe(400);
    expect(body.code).toBe("BAD_REQUEST");
    expect(body.message).toMatch(/no result files/);
    expect(anthropic.requests.length).toBe(before);
    expect((await postJson(service, "/api/ai/interpret", { run_id: run, result_type: "proteomics" })).status).toBe(400);

    anthropic.script({ status: 401, errorMessage: "invalid x-api-key for the test" });
    const refused = await postJson(service, "/api/ai/interpret", { run_id: run });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("AI_INTERPRET_ERROR");
    expect(refused.body.message).toMatch(/anthropic.*invalid x-api-key for the test/);
  });
});

describe("interpret in team mode", () => {
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

  it("answers 404 for another user's run and never calls the model", async () => {
    const created = await team.call("user", "POST", "/api/runs", { body: { toml_content: RESULTS } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(await waitForRunAs(team, id)).toBe("completed");
    const foreign = await team.call("other", "POST", "/api/ai/interpret", { body: { run_id: id } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("NOT_FOUND");
    expect(anthropic.requests).toHaveLength(0);
  });
});
