/**
 * `GET /api/runs/{id}/report` through the real service and a real engine run: the HTML report of a run
 * with one failing rule (every section, escaped, self-contained), and 404 for an unknown run and for a run
 * with no event log (a dry run).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectData, type ServiceClient } from "../../../../src/client/service-client.js";
import { expectEverySection, expectSelfContained, FAILING_PIPELINE } from "../../../support/report-checks.js";
import { closeAfterRuns, serviceClient, waitForRun } from "../../../support/run-client.js";
import { startTestService, type TestService } from "../../../support/service-harness.js";
import { assertBuilt } from "../../../support/strand-cli.js";

assertBuilt();

let service: TestService;
let client: ServiceClient;

beforeAll(async () => {
  service = await startTestService({ rateLimit: 0, runner: { sampleIntervalMs: 100, cancelGraceMs: 2000 } });
  client = serviceClient(service.url);
});

afterAll(() => closeAfterRuns(service));

const PIPELINE = `[workflow]\nname = "api-report"\n${FAILING_PIPELINE}`;

describe("GET /api/runs/{id}/report", () => {
  it("answers the HTML report of a failed run: every section, the failures diagnosed, nothing unescaped or fetched", async () => {
    const id = expectData(await client.POST("/api/runs", { body: { toml_content: PIPELINE, keep_going: true } })).id;
    const run = await waitForRun(service.url, id);
    expect(run.status).toBe("failed");
    const answer = await client.GET("/api/runs/{id}/report", { params: { path: { id } }, parseAs: "text" });
    expect(answer.response.status).toBe(200);
    expect(answer.response.headers.get("content-type")).toMatch(/^text\/html; charset=utf-8/i);
    const html = expectData(answer);
    expectEverySection(html);
    expectSelfContained(html);
    expect(html).toContain("<h1>api-report <small>v2.0.1</small></h1>");
    expect(html).toContain(`<td>${id}</td>`);
    expect(html).toContain('<p class="status status-failed">failed</p>');
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html.match(/<article class="failure">/g)).toHaveLength(2);
    expect(html).toContain("command_not_found");
    expect(html.match(/<g class="job job-(completed|failed)">/g)).toHaveLength(4);
    // The pipeline text the run ran, escaped.
    expect(html).toContain("name = &quot;api-report&quot;");
  });

  it("is 404 for an unknown run and for a dry run, which leaves no event log", async () => {
    const unknown = await client.GET("/api/runs/{id}/report", { params: { path: { id: "no-such-run" } }, parseAs: "text" });
    expect(unknown.response.status).toBe(404);
    const dry = expectData(await client.POST("/api/runs", { body: { toml_content: PIPELINE, dry_run: true } }));
    await waitForRun(service.url, dry.id);
    const answer = await fetch(`${service.url}/api/runs/${dry.id}/report`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ code: "NOT_FOUND", message: expect.stringMatching(/no event log/) });
  });
});
