/**
 * How a data mutation and a page share a success (src/web/api/reactions.ts): the mutation's own cache work
 * first (awaited when it is a promise, so a list is refreshed before a dialog closes onto it), then the
 * page's reaction with the same arguments; the page's other reactions stay as given. And the one place the
 * app decides which controls a run's state allows (src/web/api/runs.ts).
 */
import "./browser-address.js";
import { describe, expect, it } from "vitest";
import { afterCacheWork } from "../../src/web/api/reactions.js";
import { allowedControls, isTerminal } from "../../src/web/api/runs.js";

const CONTEXT = {} as never;

describe("a mutation's reactions", () => {
  it("run the cache work to its end before the page's reaction, with the same answer and request", async () => {
    const order: string[] = [];
    const reactions = afterCacheWork<string, number>(
      async (answer, request) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(`cache ${answer} ${request}`);
      },
      { onSuccess: (answer, request) => void order.push(`page ${answer} ${request}`) },
    );
    await reactions.onSuccess!("saved", 7, undefined, CONTEXT);
    expect(order).toEqual(["cache saved 7", "page saved 7"]);
  });

  it("do the cache work when the page has no reaction, and keep the page's other reactions", async () => {
    const order: string[] = [];
    const onError = () => undefined;
    const reactions = afterCacheWork<string, void>(() => void order.push("cache"), { onError });
    await reactions.onSuccess!("ok", undefined, undefined, CONTEXT);
    expect(order).toEqual(["cache"]);
    expect(reactions.onError).toBe(onError);
  });
});

describe("a run's controls", () => {
  it("are the actions the service answers with the run, and no others", () => {
    expect(allowedControls({ actions: ["pause", "cancel"] })).toEqual({ pause: true, resume: false, cancel: true, retry: false });
    expect(allowedControls({ actions: ["retry"] })).toEqual({ pause: false, resume: false, cancel: false, retry: true });
    expect(allowedControls({ actions: [] })).toEqual({ pause: false, resume: false, cancel: false, retry: false });
  });

  it("end with the terminal states", () => {
    expect(["completed", "failed", "cancelled"].every(isTerminal)).toBe(true);
    expect(["queued", "running", "paused", undefined].some(isTerminal)).toBe(false);
  });
});
