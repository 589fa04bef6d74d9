/**
 * Undo histories are each user's own share (issue 25, finding 11): one user's many edits — histories of many
 * pipelines, or much text — drop that user's own oldest histories, never another user's undo step. Through
 * the running team service (the default limits), and the bounds themselves on EditHistories.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EditHistories } from "../../../../src/server/domains/dag/undo-history.js";
import { startTeamService, type TeamService } from "../../../support/team-service.js";

const PIPELINE = '[workflow]\nname = "fair"\n\n[[rules]]\nname = "a"\noutput = ["a.txt"]\nshell = "echo a > {output}"\n';
const step = (chars: number, mark: string) => ({ before: mark.repeat(chars / 2), after: mark.repeat(chars / 2) });

describe("undo histories in a team", () => {
  let team: TeamService;
  beforeAll(async () => {
    team = await startTeamService();
  });
  afterAll(async () => {
    await team?.close();
  });

  it("keeps a user's undo step however many pipelines another user edits", async () => {
    const mine = await team.call("user", "POST", "/api/pipeline/draft-of-bo/command", { body: { toml_content: PIPELINE, operation: "add_rule", payload: { rule: { name: "b", shell: "true" } } } });
    expect(mine.body.undo_depth).toBe(1);
    // More histories than the whole service used to keep (500), one edit each, by another user.
    for (let index = 0; index <= 500; index++) {
      const theirs = await team.call("other", "POST", `/api/pipeline/scratch-${index}/command`, { body: { toml_content: PIPELINE, operation: "add_rule", payload: { rule: { name: "c", shell: "true" } } } });
      expect(theirs.status).toBe(200);
    }
    const undone = await team.call("user", "POST", "/api/pipeline/draft-of-bo/undo", { body: { toml_content: mine.body.toml_content } });
    expect(undone.status).toBe(200);
    expect(undone.body.toml_content).toBe(PIPELINE);
    // The other user's own oldest histories went instead.
    const oldest = await team.call("other", "POST", "/api/pipeline/scratch-0/undo", { body: { toml_content: "x" } });
    expect(oldest.body.code).toBe("NO_UNDO");
  }, 120_000);
});

describe("EditHistories' shares", () => {
  it("drops a user's own least recently used history past their count, not another user's", () => {
    const histories = new EditHistories({ maxSteps: 5, maxChars: 100, maxHistoriesPerUser: 2, maxCharsPerUser: 1000, maxTotalChars: 10_000 });
    histories.record("alice", "p", step(10, "a"));
    for (const pipeline of ["x", "y", "z"]) histories.record("bob", pipeline, step(10, "b"));
    expect(histories.depths("alice", "p").undo_depth).toBe(1);
    expect([histories.depths("bob", "x").undo_depth, histories.depths("bob", "y").undo_depth, histories.depths("bob", "z").undo_depth]).toEqual([0, 1, 1]);
  });

  it("drops a user's own oldest history past their text budget, never the one just edited", () => {
    const histories = new EditHistories({ maxSteps: 5, maxChars: 100, maxHistoriesPerUser: 10, maxCharsPerUser: 150, maxTotalChars: 10_000 });
    histories.record("alice", "p", step(80, "a"));
    histories.record("bob", "x", step(80, "b"));
    histories.record("bob", "y", step(80, "b"));
    expect([histories.depths("alice", "p").undo_depth, histories.depths("bob", "x").undo_depth, histories.depths("bob", "y").undo_depth]).toEqual([1, 0, 1]);
  });

  it("past the service's ceiling, drops the largest user's oldest history first, never a quiet user's", () => {
    const histories = new EditHistories({ maxSteps: 5, maxChars: 100, maxHistoriesPerUser: 10, maxCharsPerUser: 300, maxTotalChars: 400 });
    histories.record("quiet", "p", step(60, "q"));
    for (const pipeline of ["a", "b", "c"]) histories.record("busy", pipeline, step(100, "b"));
    // 360 so far; this edit makes 460: busy's oldest goes, not quiet's (older, but small), nor the one just edited.
    histories.record("late", "m", step(100, "m"));
    expect(histories.depths("quiet", "p").undo_depth).toBe(1);
    expect(["a", "b", "c"].map((pipeline) => histories.depths("busy", pipeline).undo_depth)).toEqual([0, 1, 1]);
    expect(histories.depths("late", "m").undo_depth).toBe(1);
  });
});
