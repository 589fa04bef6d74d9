/**
 * `GET /api/events` on the real service over a real socket, read by the real `eventsource` client (and
 * by raw `fetch` readers and raw sockets where the client would hide what is checked: comments, headers,
 * a reader that stops reading altogether).
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { connect, type Socket } from "node:net";
import { EventSource, type FetchLike, type FetchLikeResponse } from "eventsource";
import { afterEach, describe, expect, it } from "vitest";
import { EventBus } from "../../../src/server/events/event-bus.js";
import { startTestService, type TestService } from "../../support/service-harness.js";

interface EventRecord {
  type: string;
  time: string;
  data: Record<string, unknown>;
}

interface Received {
  /** The message's `id:` ("" for none). */
  id: string;
  record: EventRecord;
}

/** Things to close after each test, newest first (clients before the servers they talk to). */
let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  const pending = cleanups.reverse();
  cleanups = [];
  for (const cleanup of pending) await cleanup();
});

async function service(bus: EventBus): Promise<TestService> {
  const started = await startTestService({ events: bus, eventPingMs: 200, rateLimit: 0 });
  cleanups.push(() => started.close());
  return started;
}

/** Polls until `condition` holds (10 ms steps), failing with `what` after `ms`. */
async function waitFor(condition: () => boolean, what: string, ms = 4000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A real EventSource whose messages are collected; `opened` once the response headers are in. */
function listen(url: string, fetch?: FetchLike) {
  const source = new EventSource(url, fetch ? { fetch } : undefined);
  cleanups.push(() => source.close());
  const received: Received[] = [];
  const errors: string[] = [];
  source.addEventListener("message", (message) => received.push({ id: message.lastEventId, record: JSON.parse(message.data as string) as EventRecord }));
  source.addEventListener("error", (error) => errors.push(error.message ?? "error"));
  const opened = new Promise<void>((resolve, reject) => {
    source.addEventListener("open", () => resolve(), { once: true });
    source.addEventListener("error", (error) => reject(new Error(`EventSource failed: ${error.message}`)), { once: true });
  });
  return { source, received, errors, opened };
}

const ids = (received: Received[]) => received.map((r) => (r.record.type === "lagged" ? `lagged:${String(r.record.data.missed)}` : Number(r.id)));

/** A response body handed to the client through a stream the test controls. */
interface WrappedBody {
  body: ReadableStream<Uint8Array>;
  /** Drops the connection: the server sees the socket close, the client sees the body end. */
  cut(): void;
}

/**
 * Wraps a body: an optional prefix first (e.g. a `retry:` field), then the original bytes, read only when
 * the client asks and `gate` has opened (the highWaterMark of 0 reads nothing ahead), so a closed gate is a
 * client that has stopped reading and lets TCP back-pressure reach the server.
 */
function wrapBody(original: ReadableStream<Uint8Array>, options: { prefix?: string; gate?: Promise<void> } = {}): WrappedBody {
  const reader = original.getReader();
  let prefix = options.prefix === undefined ? undefined : new TextEncoder().encode(options.prefix);
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    controllerRef?.close();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controllerRef = controller;
      },
      async pull(controller) {
        if (prefix) {
          controller.enqueue(prefix);
          prefix = undefined;
          return;
        }
        await options.gate;
        const { done, value } = await reader.read();
        if (ended) return;
        if (done) end();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  return {
    body,
    cut: () => {
      void reader.cancel().catch(() => {});
      end();
    },
  };
}

/** A fetch for EventSource that adds headers, records what it sent and wraps each body. */
function customFetch(options: { headers?: Record<string, string>; prefix?: string; gate?: Promise<void> } = {}) {
  const requests: Record<string, string>[] = [];
  const bodies: WrappedBody[] = [];
  const fetchLike: FetchLike = async (url, init) => {
    const headers = { ...init.headers, ...options.headers };
    requests.push(headers);
    const response = await fetch(url, { ...init, headers });
    const wrapped = wrapBody(response.body!, options);
    bodies.push(wrapped);
    const like: FetchLikeResponse = { body: wrapped.body, url: response.url, status: response.status, redirected: response.redirected, headers: response.headers };
    return like;
  };
  return { fetch: fetchLike, requests, bodies };
}

/**
 * A plain HTTP/1.1 GET on its own socket (no pooling, no decoding): the bytes as the server sent them,
 * and a socket the test destroys itself so no idle connection outlives the test.
 */
async function rawGet(url: string, headers: Record<string, string> = {}) {
  const request = httpRequest(url, { agent: false, headers });
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request.on("response", resolve).on("error", reject).end();
  });
  let text = "";
  response.setEncoding("utf8");
  response.on("data", (chunk: string) => (text += chunk));
  const close = () => request.destroy();
  cleanups.push(close);
  return {
    response,
    close,
    /** Waits until the text so far satisfies `done`, then returns it and starts afresh. */
    async take(done: (text: string) => boolean, what: string): Promise<string> {
      await waitFor(() => done(text), what);
      const taken = text;
      text = "";
      return taken;
    },
  };
}

/** A GET /api/events on a bare socket that reads nothing until `read` is called. */
function rawSocket(url: string) {
  const { port } = new URL(url);
  const socket: Socket = connect(Number(port), "127.0.0.1");
  cleanups.push(() => socket.destroy());
  socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
  return {
    destroy: () => socket.destroy(),
    /** Starts reading and waits until the text so far satisfies `done`. */
    async read(done: (text: string) => boolean, what: string): Promise<string> {
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (text += chunk));
      await waitFor(() => done(text), what);
      return text;
    },
  };
}

async function sseSubscribers(url: string): Promise<number> {
  const metrics = (await (await fetch(`${url}/api/metrics`)).json()) as Record<string, number>;
  return metrics.sse_subscribers!;
}

describe("GET /api/events", () => {
  it("streams {type, time, data} records with increasing ids to a real EventSource", async () => {
    const bus = new EventBus();
    const { url } = await service(bus);
    const client = listen(`${url}/api/events`);
    await client.opened;
    expect(await sseSubscribers(url)).toBe(1);
    bus.publish("run_queued", { run_id: "r1" });
    bus.publish("run_started", { run_id: "r1" }, "local");
    bus.publish("job_completed", { run_id: "r1", job: "align", exit_code: 0 });
    await waitFor(() => client.received.length === 3, "three events");
    expect(ids(client.received)).toEqual([1, 2, 3]);
    for (const { record } of client.received) {
      expect(Object.keys(record).sort()).toEqual(["data", "time", "type"]);
      expect(record.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    expect(client.received.map((r) => r.record.type)).toEqual(["run_queued", "run_started", "job_completed"]);
    expect(client.received[2]!.record.data).toEqual({ run_id: "r1", job: "align", exit_code: 0 });
    client.source.close();
    await waitFor(() => bus.subscriberCount === 0, "the subscription to be released");
    expect(await sseSubscribers(url)).toBe(0);
  });

  it("sends the SSE headers and the `: ping` comment, uncompressed even for a client accepting br and gzip", async () => {
    const bus = new EventBus();
    const { url } = await service(bus);
    const raw = await rawGet(`${url}/api/events`, { Accept: "text/event-stream", "Accept-Encoding": "br, gzip" });
    const { headers } = raw.response;
    expect(raw.response.statusCode).toBe(200);
    expect(headers["content-type"]).toBe("text/event-stream");
    expect(headers["cache-control"]).toBe("no-cache");
    expect(headers.connection).toBe("keep-alive");
    expect(headers["x-accel-buffering"]).toBe("no");
    expect(headers["content-encoding"]).toBeUndefined();
    expect(headers["content-length"]).toBeUndefined();
    // Well over the compressor's 1 KiB threshold; the bytes read are the server's (no client decoding).
    const event = bus.publish("job_failed", { run_id: "r9", stderr: "error: ".repeat(1000) });
    const message = `id: 1\ndata: ${JSON.stringify({ type: "job_failed", time: event.time, data: event.data })}\n\n`;
    const first = await raw.take((text) => text.includes(message) && text.includes(": ping\n\n"), "the event and a ping");
    expect(first.replace(message, "").replace(/(: ping\n\n)+/, "")).toBe("");
    const started = Date.now();
    expect(await raw.take((text) => text.length > 0, "another ping")).toBe(": ping\n\n");
    expect(Date.now() - started).toBeLessThan(1000);
    raw.close();
    await waitFor(() => bus.subscriberCount === 0, "the subscription to be released");
  });

  it("replays the events after Last-Event-ID, or after ?last_event_id= when no header is sent", async () => {
    const bus = new EventBus();
    const { url } = await service(bus);
    for (let i = 1; i <= 5; i++) bus.publish("job_started", { i });
    const byHeader = listen(`${url}/api/events`, customFetch({ headers: { "Last-Event-ID": "3" } }).fetch);
    const byQuery = listen(`${url}/api/events?last_event_id=2`);
    const headerWins = listen(`${url}/api/events?last_event_id=1`, customFetch({ headers: { "Last-Event-ID": "4" } }).fetch);
    await Promise.all([byHeader.opened, byQuery.opened, headerWins.opened]);
    bus.publish("job_completed", {});
    await waitFor(() => [byHeader, byQuery, headerWins].every((c) => c.received.at(-1)?.id === "6"), "event 6 everywhere");
    expect(ids(byHeader.received)).toEqual([4, 5, 6]);
    expect(ids(byQuery.received)).toEqual([3, 4, 5, 6]);
    expect(ids(headerWins.received)).toEqual([5, 6]);
  });

  it("is documented in the OpenAPI document as a text/event-stream naming the event types", async () => {
    const { url } = await service(new EventBus());
    const document = (await (await fetch(`${url}/api/openapi.json`)).json()) as {
      paths: Record<string, { get?: { description?: string; responses: Record<string, { content?: Record<string, unknown> }> } }>;
    };
    const operation = document.paths["/api/events"]?.get;
    expect(operation?.responses["200"]?.content).toHaveProperty(["text/event-stream"]);
    for (const type of ["run_queued", "run_cancelled", "job_skipped", "lagged"]) expect(operation?.description).toContain(type);
  });

  it("answers HEAD with the headers and no subscription", async () => {
    const bus = new EventBus();
    const { url } = await service(bus);
    const response = await fetch(`${url}/api/events`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(bus.subscriberCount).toBe(0);
  });

  it("answers a malformed ?last_event_id= with 400", async () => {
    const { url } = await service(new EventBus());
    const response = await fetch(`${url}/api/events?last_event_id=abc`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe("BAD_REQUEST");
  });

  it("lets EventSource reconnect by itself and resume from the last id it saw", async () => {
    const bus = new EventBus();
    const { url } = await service(bus);
    // `retry: 50` in front of each body makes the client's reconnect delay short (the default is 3 s).
    const custom = customFetch({ prefix: "retry: 50\n\n" });
    const client = listen(`${url}/api/events`, custom.fetch);
    await client.opened;
    bus.publish("run_started", { n: 1 });
    bus.publish("job_started", { n: 2 });
    await waitFor(() => client.received.length === 2, "the first two events");
    custom.bodies[0]!.cut();
    // Published while the client is away.
    bus.publish("job_completed", { n: 3 });
    bus.publish("run_completed", { n: 4 });
    await waitFor(() => client.received.length === 4, "the events published while disconnected");
    bus.publish("run_queued", { n: 5 });
    await waitFor(() => client.received.length === 5, "a live event after the reconnect");
    expect(ids(client.received)).toEqual([1, 2, 3, 4, 5]);
    expect(custom.requests).toHaveLength(2);
    expect(custom.requests[0]!["Last-Event-ID"]).toBeUndefined();
    expect(custom.requests[1]!["Last-Event-ID"]).toBe("2");
    expect(client.errors.length).toBeGreaterThan(0);
    await waitFor(() => bus.subscriberCount === 1, "only the new connection's subscription");
  });

  it("precedes the replay with a lagged event counting the gap when the id is older than the ring", async () => {
    const bus = new EventBus({ ringSize: 5 });
    const { url } = await service(bus);
    for (let i = 1; i <= 12; i++) bus.publish("job_started", { i });
    const client = listen(`${url}/api/events`, customFetch({ headers: { "Last-Event-ID": "2" } }).fetch);
    await waitFor(() => client.received.length === 6, "the lagged notice and the ring");
    expect(ids(client.received)).toEqual(["lagged:5", 8, 9, 10, 11, 12]);
    const notice = client.received[0]!;
    expect(notice.id).toBe("");
    expect(Object.keys(notice.record).sort()).toEqual(["data", "time", "type"]);
    expect(notice.record.data).toEqual({ missed: 5 });
  });

  it("tells a deliberately slow EventSource how many events it missed while a fast one receives every event", async () => {
    const bus = new EventBus();
    const { url } = await service(bus);
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const slow = listen(`${url}/api/events`, customFetch({ gate }).fetch);
    const fast = listen(`${url}/api/events`);
    await Promise.all([slow.opened, fast.opened]);
    // Big events fill the socket buffers between the server and the stalled client quickly; each burst
    // is half a buffer and the fast client catches up before the next one, so only the slow one overflows.
    const payload = "x".repeat(64 * 1024);
    const burst = async () => {
      for (let i = 0; i < 50; i++) bus.publish("job_completed", { payload });
      await waitFor(() => fast.received.length === bus.lastEventId, "the fast client to catch up");
    };
    while (bus.droppedTotal === 0) {
      expect(bus.lastEventId, "events published before the slow client lagged").toBeLessThan(5000);
      await burst();
    }
    await burst();
    openGate();
    // The newest events found the slow client's queue full too: the notice is the last thing it gets.
    await waitFor(() => slow.received.at(-1)?.record.type === "lagged", "the slow client to drain its queue and read the notice");
    const last = bus.publish("run_completed", { run_id: "r1" });
    await waitFor(() => slow.received.at(-1)?.id === String(last.id), "the slow client to reach the last event");
    expect(ids(fast.received)).toEqual(Array.from({ length: last.id }, (_, i) => i + 1));
    const notices = slow.received.filter((r) => r.record.type === "lagged");
    expect(notices.length).toBeGreaterThan(0);
    const missed = notices.reduce((sum, r) => sum + (r.record.data.missed as number), 0);
    expect(missed).toBeGreaterThan(0);
    const real = slow.received.filter((r) => r.record.type !== "lagged").map((r) => Number(r.id));
    // In order, nothing twice, and every event either arrived or was counted.
    expect(real).toEqual([...real].sort((a, b) => a - b));
    expect(new Set(real).size).toBe(real.length);
    expect(real.length + missed).toBe(last.id);
    expect(bus.droppedTotal).toBe(missed);
  });

  it("counts what a raw socket that stops reading misses, without holding up the publisher", async () => {
    const bus = new EventBus();
    const { url } = await service(bus);
    const socket = rawSocket(url);
    await waitFor(() => bus.subscriberCount === 1, "the raw socket's subscription");
    const payload = "y".repeat(64 * 1024);
    while (bus.droppedTotal === 0) {
      expect(bus.lastEventId, "events published before the socket lagged").toBeLessThan(5000);
      const started = performance.now();
      for (let i = 0; i < 50; i++) bus.publish("job_completed", { payload });
      // Publishing never waits for a reader (generous bound for 50 × 64 KiB on a loaded machine).
      expect(performance.now() - started).toBeLessThan(250);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const marker = 'data: {"type":"lagged"';
    const text = await socket.read((sofar) => sofar.includes(marker) && sofar.includes("\n\n", sofar.indexOf(marker)), "the lagged notice");
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    const at = text.indexOf(marker);
    // No id line: the chunk framing (\r\n) comes right before the data line.
    expect(text.slice(at - 2, at)).toBe("\r\n");
    const line = text.slice(at + "data: ".length, text.indexOf("\n", at));
    expect((JSON.parse(line) as EventRecord).data.missed).toBe(bus.droppedTotal);
    socket.destroy();
    await waitFor(() => bus.subscriberCount === 0, "the subscription to be released");
  });

  it("releases every subscription when clients go, whichever way they go", async () => {
    const bus = new EventBus();
    const { url } = await service(bus);
    const source = listen(`${url}/api/events`);
    await source.opened;
    const raw = await rawGet(`${url}/api/events`);
    const socket = rawSocket(url);
    await waitFor(() => bus.subscriberCount === 3, "three subscriptions");
    expect(await sseSubscribers(url)).toBe(3);
    source.source.close();
    await waitFor(() => bus.subscriberCount === 2, "the EventSource's subscription to go");
    raw.close();
    await waitFor(() => bus.subscriberCount === 1, "the HTTP client's subscription to go");
    socket.destroy();
    await waitFor(() => bus.subscriberCount === 0, "the raw socket's subscription to go");
    expect(await sseSubscribers(url)).toBe(0);
  });
});
