/**
 * `GET /api/events`: the event bus as server-sent events. Each message is `id: <n>` and one `data:` line
 * holding `{type, time, data}`; a `lagged` notice has no id line, so the browser's `Last-Event-ID` stays at
 * the last real event. The only keep-alive is a `: ping` comment.
 *
 * The body is a pull-based stream: the server adapter asks for the next message only once the socket
 * has taken the previous one, so a slow client leaves events waiting in its bus queue, where the bus
 * counts what overflows and tells the client with `lagged`. Nothing here ever waits on a client while
 * holding up the bus or other clients.
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { callerOf, type Caller } from "../caller.js";
import { EVENT_TYPES, type Delivery, type EventBus, type Subscription } from "./event-bus.js";

export interface EventRouteOptions {
  /** Keep-alive comment interval (default 15 s, the specification's). */
  pingIntervalMs?: number;
  /** Whether the caller may see an event of a run owned by `owner` (undefined owner: everyone may). */
  mayRead?: (caller: Caller, owner: string) => boolean;
}

const DEFAULT_PING_MS = 15_000;
const PING = new TextEncoder().encode(": ping\n\n");
const encoder = new TextEncoder();
const SSE_HEADERS = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache",
  Connection: "keep-alive",
  // Tells nginx-style proxies not to buffer the stream.
  "X-Accel-Buffering": "no",
};

/** Administrators and the owner: the rule when the mount does not say. */
const ownerOrAdmin = (caller: Caller, owner: string) => caller.admin || caller.id === owner;

const eventsRoute = createRoute({
  method: "get",
  path: "/api/events",
  operationId: "streamEvents",
  tags: ["events"],
  summary: "Real-time run and job events as server-sent events",
  description:
    `Each message has \`id:\` (a sequence number) and \`data:\` = \`{type, time, data}\`; types: ${EVENT_TYPES.join(", ")}. ` +
    "`lagged` (no id; `data.missed` counts lost events) means the client fell behind or resumed from an id older than " +
    "the replay ring and should refetch state. `Last-Event-ID` (or `last_event_id` on the first connect) replays recent " +
    "events. Keep-alive: a `: ping` comment every 15 s. Only events of runs the caller may read are sent; never compressed.",
  request: {
    query: z.object({
      last_event_id: z
        .string()
        .regex(/^\d{1,15}$/, "a non-negative integer")
        .optional()
        .openapi({ description: "resume after this event id (for clients that cannot set Last-Event-ID)" }),
      run_id: z.string().min(1).max(128).optional().openapi({ description: "only this run's events (a `lagged` notice still comes; it may concern other runs' events)" }),
    }),
    headers: z.object({
      "last-event-id": z.string().optional().openapi({ description: "resume after this event id (sent by EventSource when it reconnects); wins over the query" }),
    }),
  },
  responses: {
    200: {
      description: "an endless event stream",
      content: { "text/event-stream": { schema: z.string().openapi({ example: 'id: 7\ndata: {"type":"run_started","time":"2025-01-01T00:00:00.000Z","data":{"run_id":"r1"}}\n\n' }) } },
    },
  },
});

/** One SSE message for a delivery: an id line for real events, then the record on one data line. */
export function formatMessage(delivery: Delivery): string {
  const record = JSON.stringify({ type: delivery.type, time: delivery.time, data: delivery.data });
  return delivery.id === undefined ? `data: ${record}\n\n` : `id: ${delivery.id}\ndata: ${record}\n\n`;
}

const encodedMessages = new WeakMap<Delivery, Uint8Array>();

/** The message's bytes, made once per event however many subscribers it goes to (events are shared objects). */
function encodedMessage(delivery: Delivery): Uint8Array {
  let bytes = encodedMessages.get(delivery);
  if (!bytes) {
    bytes = encoder.encode(formatMessage(delivery));
    encodedMessages.set(delivery, bytes);
  }
  return bytes;
}

/** The id to resume after: the header (EventSource sends it on reconnect) over the query; junk is ignored. */
function resumeAfter(c: Context): number | undefined {
  for (const value of [c.req.header("Last-Event-ID"), c.req.query("last_event_id")]) {
    const trimmed = value?.trim();
    if (trimmed && /^\d{1,15}$/.test(trimmed)) return Number(trimmed);
  }
  return undefined;
}

/**
 * The response body: each pull hands over one message (or a due ping), waiting for one if none is
 * queued. The highWaterMark of 0 keeps the stream from reading ahead of the socket.
 */
function eventStream(subscription: Subscription, pingMs: number, signal: AbortSignal): ReadableStream<Uint8Array> {
  let pending: Promise<IteratorResult<Delivery, undefined>> | undefined;
  let pingDue = false;
  let wakeForPing: (() => void) | undefined;
  let open = true;
  const timer = setInterval(() => {
    pingDue = true;
    wakeForPing?.();
  }, pingMs);
  const stop = () => {
    open = false;
    clearInterval(timer);
    signal.removeEventListener("abort", stop);
    subscription.close();
  };
  signal.addEventListener("abort", stop);
  if (signal.aborted) stop();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!pingDue) {
          // A ping may win the race; the unfinished next() is kept for the following pull, so nothing is lost.
          pending ??= subscription.next();
          const woken = new Promise<"ping">((resolve) => (wakeForPing = () => resolve("ping")));
          const result = await Promise.race([pending, woken]);
          wakeForPing = undefined;
          // Cancelled while waiting (client gone): the controller no longer takes anything.
          if (!open) return;
          if (result !== "ping") {
            pending = undefined;
            if (result.done) {
              // The bus closed the subscription (shutdown): end the response.
              stop();
              controller.close();
            } else controller.enqueue(encodedMessage(result.value));
            return;
          }
        }
        pingDue = false;
        controller.enqueue(PING);
      },
      cancel: stop,
    },
    { highWaterMark: 0 },
  );
}

/** The rule's answer; a rule that throws hides the event rather than break the publish for everyone. */
function readable(mayRead: (caller: Caller, owner: string) => boolean, caller: Caller, owner: string): boolean {
  try {
    return mayRead(caller, owner);
  } catch {
    return false;
  }
}

/** The SSE endpoint. */
export function eventRoutes(bus: EventBus, options: EventRouteOptions = {}): OpenAPIHono {
  const router = new OpenAPIHono();
  const pingMs = options.pingIntervalMs ?? DEFAULT_PING_MS;
  const mayRead = options.mayRead ?? ownerOrAdmin;
  router.openapi(eventsRoute, (c) => {
    // Hono answers HEAD with this handler and drops the body uncancelled: a subscription would never be released.
    if (c.req.method === "HEAD") return new Response(null, { status: 200, headers: SSE_HEADERS }) as never;
    const caller = callerOf(c);
    const runId = c.req.query("run_id") || undefined;
    const subscription = bus.subscribe({
      afterId: resumeAfter(c),
      accept: (event) => (runId === undefined || event.data.run_id === runId) && (event.owner === undefined || readable(mayRead, caller, event.owner)),
    });
    const body = eventStream(subscription, pingMs, c.req.raw.signal);
    return new Response(body, { status: 200, headers: SSE_HEADERS }) as never;
  });
  return router;
}
