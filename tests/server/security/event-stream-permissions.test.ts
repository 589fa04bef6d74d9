/**
 * `GET /api/events` holds only as long as the permission it was opened with (issue 25, finding 7): against
 * a real team service on a socket, streams read with `fetch` end when their session is signed out or
 * revoked, when their personal access token is revoked, when the account's password is reset or changed,
 * its role changes or it is deleted — at once through the auth service, and within the re-check interval
 * when the change reaches the database another way (another process sharing it, an expiring session). A
 * user may hold only so many streams at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serviceConfig } from "../../../src/server/config.js";
import { EventBus } from "../../../src/server/events/event-bus.js";
import { startTestService } from "../../support/service-harness.js";
import { send, startTeamService, trivialPipeline, type TeamService } from "../../support/team-service.js";

/** The re-check interval of the service that tests it (production: 30 s; the others keep that, so what ends there ends by the auth service's signal). */
const RECHECK_MS = 250;
/** How long an end that the auth service signals may take to reach the client. */
const AT_ONCE_MS = 1500;
/** Streams one user may hold at once in these tests. */
const STREAMS_PER_USER = 3;

interface StreamEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/** An open `GET /api/events` read as it arrives. */
interface OpenStream {
  status: number;
  events: StreamEvent[];
  /** Whether the server ended the body. */
  ended(): boolean;
  /** Stops reading and drops the connection (the client goes away). */
  close(): Promise<void>;
}

const open: OpenStream[] = [];

/** Opens the event stream with `token` and reads its messages in the background. */
async function openStream(url: string, token: string, query = ""): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/events${query}`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  const events: StreamEvent[] = [];
  let ended = false;
  if (response.status === 200 && response.body) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const message = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const id = /^id: (.*)$/m.exec(message)?.[1] ?? "";
            const data = /^data: (.*)$/m.exec(message)?.[1];
            if (data !== undefined) events.push({ id, ...(JSON.parse(data) as Omit<StreamEvent, "id">) });
          }
        }
      } catch {
        // Aborted by close(): not an end the server chose.
        return;
      }
      ended = true;
    })();
  } else {
    await response.body?.cancel();
  }
  const stream: OpenStream = {
    status: response.status,
    events,
    ended: () => ended,
    close: async () => {
      controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 20));
    },
  };
  open.push(stream);
  return stream;
}

/** Polls until `condition` holds, failing with `what` after `ms`. */
async function waitFor(condition: () => boolean, what: string, ms = 4000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("event streams end with the permission they were opened with", () => {
  let team: TeamService;
  const bus = new EventBus();
  let serial = 0;

  /** A fresh account signed in (its token and id), so each case changes only its own. */
  async function account(role: "admin" | "user" | "viewer"): Promise<{ id: string; username: string; password: string; token: string }> {
    const username = `acct-${++serial}`;
    const password = `${username}-long-password`;
    const made = await team.call("admin", "POST", "/api/users", { body: { username, password, role } });
    expect(made.status).toBe(201);
    const login = await send(team.url, "POST", "/api/auth/login", { body: { username, password } });
    return { id: made.body.id as string, username, password, token: login.body.token as string };
  }

  /** Publishes an event of a run owned by `owner`, as the runner does. */
  const publish = (owner: string, runId: string) => bus.publish("run_started", { run_id: runId }, owner);

  beforeAll(async () => {
    team = await startTeamService({ events: bus, eventPingMs: 100, eventStreamsPerUser: STREAMS_PER_USER });
  });
  afterAll(async () => {
    for (const stream of open) await stream.close();
    await team?.close();
  });

  it("an administrator's stream that shows another user's run events ends when the administrator is demoted, and no more of them arrive", async () => {
    const watcher = await account("admin");
    const stream = await openStream(team.url, watcher.token);
    expect(stream.status).toBe(200);
    // The user's real run: its events reach the administrator.
    const run = await team.call("user", "POST", "/api/runs", { body: { toml_content: trivialPipeline("watched") } });
    expect(run.status).toBe(201);
    const runId = run.body.id as string;
    await waitFor(() => stream.events.some((event) => event.data.run_id === runId), "the user's run events on the administrator's stream");
    expect((await team.call("admin", "PATCH", `/api/users/${watcher.id}`, { body: { role: "user" } })).status).toBe(200);
    await waitFor(() => stream.ended(), "the demoted administrator's stream to end", AT_ONCE_MS);
    const seen = stream.events.length;
    publish(team.ids.user, "after-demotion");
    await pause(300);
    expect(stream.events.slice(seen).filter((event) => event.data.run_id === "after-demotion")).toEqual([]);
    // Reconnecting gives the new role's view: the user's events no longer come.
    const again = await openStream(team.url, watcher.token);
    expect(again.status).toBe(200);
    publish(team.ids.user, "for-the-owner-only");
    publish(watcher.id, "own-run");
    await waitFor(() => again.events.some((event) => event.data.run_id === "own-run"), "the demoted account's own event");
    expect(again.events.map((event) => event.data.run_id)).toEqual(["own-run"]);
  });

  it("signing out ends the streams of that session, and only those", async () => {
    const someone = await account("user");
    const second = (await send(team.url, "POST", "/api/auth/login", { body: { username: someone.username, password: someone.password } })).body.token as string;
    const leaving = await openStream(team.url, someone.token);
    const staying = await openStream(team.url, second);
    expect([leaving.status, staying.status]).toEqual([200, 200]);
    expect((await send(team.url, "POST", "/api/auth/logout", { token: someone.token })).status).toBe(200);
    await waitFor(() => leaving.ended(), "the signed-out session's stream to end", AT_ONCE_MS);
    publish(someone.id, "still-signed-in");
    await waitFor(() => staying.events.some((event) => event.data.run_id === "still-signed-in"), "the other session's stream to go on");
    expect(staying.ended()).toBe(false);
  });

  it("revoking a session from another one ends its streams", async () => {
    const someone = await account("viewer");
    const other = (await send(team.url, "POST", "/api/auth/login", { body: { username: someone.username, password: someone.password } })).body.token as string;
    const stream = await openStream(team.url, someone.token);
    const sessions = await send(team.url, "GET", "/api/auth/sessions", { token: someone.token });
    const current = (sessions.body as unknown as { id: string; current: boolean }[]).find((session) => session.current)!;
    expect((await send(team.url, "DELETE", `/api/auth/sessions/${current.id}`, { token: other })).status).toBe(200);
    await waitFor(() => stream.ended(), "the revoked session's stream to end", AT_ONCE_MS);
  });

  it("an administrator's password reset ends every stream of the account, session and token alike", async () => {
    const someone = await account("user");
    const pat = (await send(team.url, "POST", "/api/auth/tokens", { token: someone.token, body: { name: "follower" } })).body.token as string;
    const bySession = await openStream(team.url, someone.token);
    const byToken = await openStream(team.url, pat);
    expect([bySession.status, byToken.status]).toEqual([200, 200]);
    expect((await team.call("admin", "PATCH", `/api/users/${someone.id}`, { body: { password: "a-brand-new-password" } })).status).toBe(200);
    await waitFor(() => bySession.ended() && byToken.ended(), "both streams to end", AT_ONCE_MS);
    const seen = bySession.events.length + byToken.events.length;
    publish(someone.id, "after-reset");
    await pause(200);
    expect(bySession.events.length + byToken.events.length).toBe(seen);
  });

  it("changing one's own password ends the streams of one's other sessions", async () => {
    const someone = await account("user");
    const other = (await send(team.url, "POST", "/api/auth/login", { body: { username: someone.username, password: someone.password } })).body.token as string;
    const elsewhere = await openStream(team.url, other);
    const here = await openStream(team.url, someone.token);
    const changed = await send(team.url, "POST", "/api/auth/password", { token: someone.token, body: { current_password: someone.password, new_password: "changed-password-456" } });
    expect(changed.status).toBe(200);
    await waitFor(() => elsewhere.ended(), "the other session's stream to end", AT_ONCE_MS);
    publish(someone.id, "still-here");
    await waitFor(() => here.events.some((event) => event.data.run_id === "still-here"), "the changing session's stream to go on");
  });

  it("deleting an account ends its streams", async () => {
    const someone = await account("viewer");
    const stream = await openStream(team.url, someone.token);
    expect((await team.call("admin", "DELETE", `/api/users/${someone.id}`)).status).toBe(200);
    await waitFor(() => stream.ended(), "the deleted account's stream to end", AT_ONCE_MS);
  });

  it("revoking a personal access token ends the streams opened with it", async () => {
    const someone = await account("user");
    const created = await send(team.url, "POST", "/api/auth/tokens", { token: someone.token, body: { name: "dashboard" } });
    const stream = await openStream(team.url, created.body.token as string);
    const bySession = await openStream(team.url, someone.token);
    expect((await send(team.url, "DELETE", `/api/auth/tokens/${created.body.id as string}`, { token: someone.token })).status).toBe(200);
    await waitFor(() => stream.ended(), "the revoked token's stream to end", AT_ONCE_MS);
    expect(bySession.ended()).toBe(false);
    const reconnect = await openStream(team.url, created.body.token as string);
    expect(reconnect.status).toBe(401);
  });

  it("a change made behind the service's back (another process, the same database) ends the stream within the re-check interval", async () => {
    const rechecking = await startTeamService({ eventPingMs: 100, eventRecheckMs: RECHECK_MS });
    try {
      const { store } = rechecking.service;
      const byRole = await openStream(rechecking.url, rechecking.tokens.admin);
      const byExpiry = await openStream(rechecking.url, rechecking.tokens.user);
      const unchanged = await openStream(rechecking.url, rechecking.tokens.other);
      expect([byRole.status, byExpiry.status, unchanged.status]).toEqual([200, 200, 200]);
      // Straight into the store, as `strand user add` or a second service process would.
      await store.updateUser(rechecking.ids.admin, { role: "viewer" });
      const [session] = await store.listSessions(rechecking.ids.user);
      const past = new Date(Date.now() - 1000).toISOString();
      await store.touchSession(session!.id, { expires_at: past, last_seen_at: past });
      await waitFor(() => byRole.ended() && byExpiry.ended(), "both streams to end at the next re-check", RECHECK_MS * 4 + 1000);
      await pause(RECHECK_MS * 2);
      expect(unchanged.ended()).toBe(false);
    } finally {
      await rechecking.close();
    }
  });

  it(`holds a user to ${STREAMS_PER_USER} streams at once (429 RATE_LIMITED naming the setting), and admits again once one ends`, async () => {
    const someone = await account("user");
    const streams = [];
    for (let index = 0; index < STREAMS_PER_USER; index++) streams.push(await openStream(team.url, someone.token));
    expect(streams.map((stream) => stream.status)).toEqual(Array(STREAMS_PER_USER).fill(200));
    // HEAD answers without a stream and takes no place.
    expect((await fetch(`${team.url}/api/events`, { method: "HEAD", headers: { authorization: `Bearer ${someone.token}` } })).status).toBe(200);
    const refused = await send(team.url, "GET", "/api/events", { token: someone.token });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("RATE_LIMITED");
    expect(refused.body.message).toContain(`SERVICE_EVENT_STREAMS_PER_USER=${STREAMS_PER_USER}`);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Audited as a refusal, like the other per-user limits.
    const audit = await team.call("admin", "GET", `/api/audit?action=events.stream&user=${someone.id}`);
    expect(audit.body.items).toEqual([expect.objectContaining({ result: "denied", status: 429, resource: `user/${someone.id}` })]);
    // Another account is not held to this one's streams.
    const other = await openStream(team.url, team.tokens.other);
    expect(other.status).toBe(200);
    await streams[0]!.close();
    let admitted: OpenStream | undefined;
    const deadline = Date.now() + 2000;
    // The place is freed when the server sees the connection go, which takes a moment.
    do {
      admitted = await openStream(team.url, someone.token);
      if (admitted.status === 200) break;
      await pause(50);
    } while (Date.now() < deadline);
    expect(admitted.status).toBe(200);
  });
});

describe("the number of event streams per user", () => {
  it("is SERVICE_EVENT_STREAMS_PER_USER: 8 by default in team and hpc modes, none in personal mode, 0 for none", () => {
    expect(serviceConfig({ SERVICE_MODE: "team" }).eventStreamsPerUser).toBe(8);
    expect(serviceConfig({ SERVICE_MODE: "hpc" }).eventStreamsPerUser).toBe(8);
    expect(serviceConfig({}).eventStreamsPerUser).toBe(0);
    expect(serviceConfig({ SERVICE_MODE: "team", SERVICE_EVENT_STREAMS_PER_USER: "0" }).eventStreamsPerUser).toBe(0);
    expect(serviceConfig({ SERVICE_MODE: "team", SERVICE_EVENT_STREAMS_PER_USER: "20" }).eventStreamsPerUser).toBe(20);
    expect(() => serviceConfig({ SERVICE_MODE: "team", SERVICE_EVENT_STREAMS_PER_USER: "many" })).toThrow(/SERVICE_EVENT_STREAMS_PER_USER must be a whole number/);
  });

  it("does not hold the one user of a personal service (a dozen tabs are fine)", async () => {
    const personal = await startTestService({ rateLimit: 0 });
    try {
      const streams: OpenStream[] = [];
      for (let index = 0; index < 12; index++) streams.push(await openStream(personal.url, "unused-in-personal-mode"));
      expect(streams.map((stream) => stream.status)).toEqual(Array(12).fill(200));
      for (const stream of streams) await stream.close();
    } finally {
      await personal.close();
    }
  });
});
