/**
 * Error messages name no server path to anyone but administrators (issue 25, finding 11: paths outside the
 * data folder were shown as they are). Through the running team service: an error quoting paths under /etc
 * and /home shows a user and a viewer only their last part, and an administrator the whole path.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTeamService, type TeamService } from "../../support/team-service.js";

describe("absolute paths in error messages", () => {
  let team: TeamService;
  beforeAll(async () => {
    team = await startTeamService();
  });
  afterAll(async () => {
    await team?.close();
  });

  it.each([
    ["/etc/strand/secret.conf", "<path>/secret.conf"],
    ["/home/someone-else/project/reads.fq", "<path>/reads.fq"],
  ])("%s is named %s for a user and a viewer, in full for an administrator", async (path, shown) => {
    const query = `/api/files?path=${encodeURIComponent(path)}`;
    for (const who of ["user", "viewer"] as const) {
      const answer = await team.call(who, "GET", query);
      expect(answer.status).toBe(404);
      expect(answer.body.message).toBe(`${shown} is not a folder of your data folders`);
      expect(answer.text).not.toContain(path.split("/").slice(0, -1).join("/"));
    }
    const admin = await team.call("admin", "GET", query);
    expect(admin.body.message).toBe(`${path} is not a folder of your data folders`);
  });
});
