/** The one table of run states and the actions each allows, which the run views answer as `actions`. */
import { describe, expect, it } from "vitest";
import { allowedRunActions, isTerminalRunStatus, RUN_ACTIONS, RUN_STATUSES, TERMINAL_RUN_STATUSES } from "../../../src/server/store/runs/run-states.js";

describe("run states", () => {
  it("end in completed, failed or cancelled", () => {
    expect(RUN_STATUSES.filter(isTerminalRunStatus)).toEqual([...TERMINAL_RUN_STATUSES]);
  });

  it("allow each action only where it makes sense, and no retry of a dry run", () => {
    const table = Object.fromEntries(RUN_STATUSES.map((status) => [status, allowedRunActions({ status, dry_run: false })]));
    expect(table).toEqual({
      queued: ["cancel"],
      running: ["pause", "cancel"],
      paused: ["resume", "cancel"],
      completed: [],
      failed: ["retry"],
      cancelled: ["retry"],
    });
    expect(allowedRunActions({ status: "failed", dry_run: true })).toEqual([]);
    // Every action is allowed from some state.
    expect(new Set(Object.values(table).flat())).toEqual(new Set(RUN_ACTIONS));
  });
});
