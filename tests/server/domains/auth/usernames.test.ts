/**
 * Usernames that cannot be mistaken for one another (issue 25, finding 11: `bob.` was accepted next to
 * `bob`). A new name starts and ends with a letter or digit and has no two punctuation marks in a row, and
 * must not look like an existing one once case and `.`, `-`, `_` are set aside — through POST /api/users,
 * and for names made from an identity provider's login (the next free suffix instead).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountForIdentity, usernameStem } from "../../../../src/server/domains/auth/oauth-accounts.js";
import { openTempStore, type TempStore } from "../../../support/temp-store.js";
import { startTeamService, type TeamService } from "../../../support/team-service.js";

const PASSWORD = "a-long-enough-password";

describe("POST /api/users", () => {
  let team: TeamService;
  beforeAll(async () => {
    team = await startTeamService(); // has the accounts ada, bo, cy and vi
  });
  afterAll(async () => {
    await team?.close();
  });

  it.each(["bob.", "bob-", "bob_", "b..ob", "b.-ob", "bo__b", ".bob"])("refuses the shape of %j with 400", async (username) => {
    const answer = await team.call("admin", "POST", "/api/users", { body: { username, password: PASSWORD, role: "user" } });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("BAD_REQUEST");
    expect(answer.body.suggestion).toMatch(/letter or digit/);
  });

  it.each(["b.o", "B-O", "b_o", "Vi", "c.y"])("refuses %j, which looks like an existing account, with 409", async (username) => {
    const answer = await team.call("admin", "POST", "/api/users", { body: { username, password: PASSWORD, role: "user" } });
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe("CONFLICT");
    expect(answer.body.message).toMatch(/looks like the existing account/);
  });

  it("accepts names with single marks between letters and digits", async () => {
    for (const username of ["bo.smith", "mary-jo", "x_1", "r2d2"]) {
      const answer = await team.call("admin", "POST", "/api/users", { body: { username, password: PASSWORD, role: "user" } });
      expect(answer.status, username).toBe(201);
    }
    // And then a look-alike of one of those is refused too.
    expect((await team.call("admin", "POST", "/api/users", { body: { username: "bosmith", password: PASSWORD, role: "user" } })).status).toBe(409);
  });
});

describe("usernames made from an identity provider's login", () => {
  let temp: TempStore;
  beforeAll(async () => {
    temp = await openTempStore();
  });
  afterAll(async () => {
    await temp?.dispose();
  });

  it("have the same shape: no mark at either end, none doubled", () => {
    expect(usernameStem("bob.", "github")).toBe("bob");
    expect(usernameStem("a..b--c__d", "github")).toBe("a.b-c_d");
    expect(usernameStem("J. Doe", "orcid")).toBe("J.Doe");
  });

  it("take the next free suffix when the login looks like an existing account", async () => {
    await temp.store.createUser({ username: "octo-cat", role: "user", password_hash: null });
    const linked = await accountForIdentity(temp.store, "github", { providerUserId: "101", login: "OctoCat" });
    expect(linked).toMatchObject({ created: true, user: { username: "OctoCat-2" } });
    const again = await accountForIdentity(temp.store, "github", { providerUserId: "102", login: "octocat" });
    expect(again.user.username).toBe("octocat-3");
  });
});
