/**
 * Who sees what on `GET /api/events`: the router on a small app of its own whose middleware sets the
 * caller (the auth middleware's job in team mode), served on a real socket and read by real EventSources.
 */
import { serve, type ServerType } from "@hono/node-server";
import { OpenAPIHono } from "@hono/zod-openapi";
import { EventSource } from "eventsource";
import { afterEach, describe, expect, it } from "vitest";
import type { Caller } from "../../../src/server/caller.js";
import { EventBus } from "../../../src/server/events/event-bus.js";
import { eventRoutes, type EventRouteOptions } from "../../../src/server/events/routes.js";

let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  const pending = cleanups.reverse();
  cleanups = [];
  for (const cleanup of pending) await cleanup();
});

/** Serves the event router behind a middleware that makes `X-Test-User` the caller (`root` is an administrator). */
async function serveEvents(bus: EventBus, options: EventRouteOptions): Promise<string> {
  const app = new OpenAPIHono();
  app.use(async (c, next) => {
    const id = c.req.header("X-Test-User") ?? "anonymous";
    c.set("caller" as never, { id, username: id, role: id === "root" ? "admin" : "user", admin: id === "root" } satisfies Caller as never);
    await next();
  });
  app.route("/", eventRoutes(bus, options));
  let server!: ServerType;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => resolve(info.port));
  });
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${port}/api/events`;
}

/** A real EventSource as `user`, collecting `id:type` of each message. */
async function listenAs(url: string, user: string) {
  const source = new EventSource(url, { fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, "X-Test-User": user } }) });
  cleanups.push(() => source.close());
  const seen: string[] = [];
  source.addEventListener("message", (message) => seen.push(`${message.lastEventId}:${(JSON.parse(message.data as string) as { type: string }).type}`));
  await new Promise<void>((resolve, reject) => {
    source.addEventListener("open", () => resolve(), { once: true });
    source.addEventListener("error", (error) => reject(new Error(error.message)), { once: true });
  });
  return seen;
}

async function waitFor(condition: () => boolean, what: string, ms = 4000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("GET /api/events visibility", () => {
  it("sends a caller only events of runs they may read, and unowned events to everyone", async () => {
    const bus = new EventBus();
    const asked: string[] = [];
    const url = await serveEvents(bus, {
      pingIntervalMs: 200,
      mayRead: (caller, owner) => {
        asked.push(`${caller.id}->${owner}`);
        return caller.admin || caller.id === owner;
      },
    });
    const bob = await listenAs(url, "bob");
    const root = await listenAs(url, "root");
    bus.publish("run_started", { run_id: "a1" }, "alice");
    bus.publish("run_started", { run_id: "b1" }, "bob");
    bus.publish("job_skipped", { note: "unowned" });
    bus.publish("run_completed", { run_id: "a1" }, "alice");
    await waitFor(() => root.length === 4 && bob.length === 2, "both clients' events");
    expect(bob).toEqual(["2:run_started", "3:job_skipped"]);
    expect(root).toEqual(["1:run_started", "2:run_started", "3:job_skipped", "4:run_completed"]);
    // Asked once per owned event per subscriber, never for unowned ones.
    expect(asked.filter((entry) => entry.startsWith("bob->"))).toEqual(["bob->alice", "bob->bob", "bob->alice"]);
  });

  it("filters the Last-Event-ID replay the same way", async () => {
    const bus = new EventBus();
    bus.publish("run_started", {}, "alice");
    bus.publish("run_started", {}, "bob");
    bus.publish("run_failed", {}, "alice");
    bus.publish("run_failed", {}, "bob");
    const url = await serveEvents(bus, { pingIntervalMs: 200, mayRead: (caller, owner) => caller.id === owner });
    const bob = await listenAs(`${url}?last_event_id=1`, "bob");
    await waitFor(() => bob.length === 2, "bob's replay");
    expect(bob).toEqual(["2:run_started", "4:run_failed"]);
  });

  it("lets only administrators and owners read when the mount gives no rule", async () => {
    const bus = new EventBus();
    const url = await serveEvents(bus, { pingIntervalMs: 200 });
    const carol = await listenAs(url, "carol");
    const root = await listenAs(url, "root");
    bus.publish("run_started", {}, "alice");
    bus.publish("run_started", {}, "carol");
    await waitFor(() => root.length === 2 && carol.length === 1, "the events");
    expect(carol).toEqual(["2:run_started"]);
  });
});
