/**
 * `GET /api/events`: the event bus as server-sent events. Each message is `id: <n>` and one `data:` line
 * holding `{type, time, data}`; a `lagged` notice has no id line, so the browser's `Last-Event-ID` stays at
 * the last real event. The only keep-alive is a `: ping` comment.
 *
 * The body is a pull-based stream: the server adapter asks for the next message only once the socket
 * has taken the previous one, so a slow client leaves events waiting in its bus queue, where the bus
 * counts what overflows and tells the client with `lagged`. Nothing here ever waits on a client while
 * holding up the bus or other clients.
 *
 * Each stream is registered with the account and credential it was opened with (`live-streams.ts`): it ends
 * when that credential ends or the account's role changes, and a user may hold only so many at once.
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { callerOf, type Caller } from "../caller.js";
import { noteAudit } from "../middleware/audit.js";
import { authenticationOf } from "../middleware/authentication.js";
import { failureResponse } from "../openapi-shapes.js";
import { EVENT_TYPES, type Delivery, type EventBus, type Subscription } from "./event-bus.js";
import { LiveStreams } from "./live-streams.js";

export interface EventRouteOptions {
  /** Keep-alive comment interval (default 15 s, the specification's). */
  pingIntervalMs?: number;
  /** Whether the caller may see an event of a run owned by `owner` (undefined owner: everyone may). */
  mayRead?: (caller: Caller, owner: string) => boolean;
  /** The open streams: who holds them, their limit per user, their re-check (default: counted, no limit, never re-checked). */
  streams?: LiveStreams;
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
    "events. Keep-alive: a `: ping` comment every 15 s. Only events of runs the caller may read are sent; never compressed. " +
    "The stream ends when the session or token it was opened with ends (sign-out, revocation, expiry, a password reset) or the " +
    "account's role changes or it is deleted; a client that reconnects is authenticated afresh. A user may hold " +
    "SERVICE_EVENT_STREAMS_PER_USER streams at once (default 8 in team and hpc modes).",
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
    429: failureResponse("RATE_LIMITED, with Retry-After: too many requests from this client, or the caller already holds as many event streams as one user may (the message names SERVICE_EVENT_STREAMS_PER_USER)"),
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

/** A response body and how the server ends it. */
interface EventStream {
  body: ReadableStream<Uint8Array>;
  /** Ends the response now: nothing more is sent, whatever is queued is dropped (idempotent). */
  end(): void;
}

/**
 * The response body: each pull hands over one message (or a due ping), waiting for one if none is
 * queued. The highWaterMark of 0 keeps the stream from reading ahead of the socket. `onStop` runs once,
 * when the stream is over for whatever reason (the client went, the bus closed, the server ended it).
 */
function eventStream(subscription: Subscription, pingMs: number, signal: AbortSignal, onStop: () => void): EventStream {
  let pending: Promise<IteratorResult<Delivery, undefined>> | undefined;
  let pingDue = false;
  let wakeForPing: (() => void) | undefined;
  let open = true;
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
  const timer = setInterval(() => {
    pingDue = true;
    wakeForPing?.();
  }, pingMs);
  const stop = () => {
    if (!open) return;
    open = false;
    clearInterval(timer);
    signal.removeEventListener("abort", stop);
    // A pull waiting for the next event wakes up done, sees the stream stopped and enqueues nothing.
    subscription.close();
    onStop();
  };
  const end = () => {
    if (!open) return;
    stop();
    try {
      controllerRef?.close();
    } catch {
      // Already closed or cancelled: the stream is over either way.
    }
  };
  signal.addEventListener("abort", stop);
  if (signal.aborted) stop();
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controllerRef = controller;
        if (!open) controller.close();
      },
      async pull(controller) {
        if (!open) return;
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
  return { body, end };
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
  const streams = options.streams ?? new LiveStreams({ perUser: 0 });
  router.openapi(eventsRoute, (c) => {
    // Hono answers HEAD with this handler and drops the body uncancelled: a subscription would never be released.
    if (c.req.method === "HEAD") return new Response(null, { status: 200, headers: SSE_HEADERS }) as never;
    const caller = callerOf(c);
    const current = authenticationOf(c);
    const credential = current === null ? null : current.via === "session" ? { via: "session" as const, id: current.session.id } : { via: "access-token" as const, id: current.token.id };
    // Taken before subscribing: a refused stream costs nothing. The stream's end gives the place back.
    const ending: { end?: () => void } = {};
    let release: () => void;
    try {
      release = streams.admit({ caller, credential }, () => ending.end?.());
    } catch (error) {
      // A refusal of a per-user limit is audited like the others (a stream that opens is a read, and is not).
      noteAudit(c, "events.stream", `user/${caller.id}`);
      throw error;
    }
    const runId = c.req.query("run_id") || undefined;
    const subscription = bus.subscribe({
      afterId: resumeAfter(c),
      accept: (event) => (runId === undefined || event.data.run_id === runId) && (event.owner === undefined || readable(mayRead, caller, event.owner)),
    });
    const stream = eventStream(subscription, pingMs, c.req.raw.signal, release);
    ending.end = stream.end;
    return new Response(stream.body, { status: 200, headers: SSE_HEADERS }) as never;
  });
  return router;
}
