/**
 * The audit log keeps no live share token (issue 25, finding 11). Refused and failed requests on a share
 * link's paths — a viewer revoking it, another user revoking it, a wrong method on the landing document, the
 * same under another spelling of the path — are recorded with the token masked, in every column, while the
 * link itself keeps working.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTeamService, trivialPipeline, type TeamService } from "../../support/team-service.js";

describe("audit rows of requests on share links", () => {
  let team: TeamService;
  let pipeline: string;
  let token: string;
  beforeAll(async () => {
    team = await startTeamService();
    const saved = await team.call("user", "POST", "/api/pipelines", { body: { toml_content: trivialPipeline("shared-one") } });
    pipeline = saved.body.id as string;
    const share = await team.call("user", "POST", `/api/pipelines/${pipeline}/share`);
    expect(share.status).toBe(201);
    token = share.body.token as string;
  });
  afterAll(async () => {
    await team?.close();
  });

  it("never hold the token, whoever was refused and however the path was spelled", async () => {
    const attempts: [who: Parameters<TeamService["call"]>[0], method: string, path: string][] = [
      ["viewer", "DELETE", `/api/pipelines/${pipeline}/share/${token}`],
      ["other", "DELETE", `/api/pipelines/${pipeline}/share/${token}`],
      ["anonymous", "DELETE", `/api/pipelines/${pipeline}/share/${token}`],
      ["viewer", "DELETE", `/api/pipelines/${pipeline}/%73hare/${token}`],
      ["anonymous", "PUT", `/api/share/${token}`],
      ["viewer", "DELETE", `/api/share/${token}`],
      ["other", "POST", `/api/share/${token}/x`],
      ["viewer", "POST", `/api/%73hare/${encodeURIComponent(token)}`],
    ];
    for (const [who, method, path] of attempts) {
      const answer = await team.call(who, method, path);
      expect(answer.status, `${who} ${method} ${path}`).toBeGreaterThanOrEqual(400);
    }
    const rows = (await team.service.store.listAudit({ limit: 500 })).items;
    const onShares = rows.filter((row) => /share/i.test(row.path) || /%73hare/i.test(row.path));
    expect(onShares.length).toBeGreaterThanOrEqual(attempts.length);
    for (const row of rows) expect(JSON.stringify(row)).not.toContain(token);
    // What was done to what stays readable.
    expect(onShares.map((row) => row.path)).toContain(`/api/pipelines/${pipeline}/share/{token}`);
    // And the link still works: these rows would have held a live credential.
    expect((await team.call("anonymous", "GET", `/api/share/${token}`)).status).toBe(200);
  });
});
