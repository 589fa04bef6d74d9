/**
 * The rate limiter: a sliding window per client address, 429 RATE_LIMITED with Retry-After and
 * `retry in <N>s`, forwarding headers believed only from trusted proxies, eviction without a timer.
 */
import { afterAll, describe, expect, it } from "vitest";
import { Hono } from "hono";
import { clientAddress, limiterKey, SlidingWindowLimiter } from "../../../src/server/middleware/rate-limit.js";
import { startTestService, type TestService } from "../../support/service-harness.js";

const services: TestService[] = [];
afterAll(() => Promise.all(services.map((service) => service.close())));

describe("clientAddress", () => {
  /** The address `clientAddress` finds for a request from `peer` with these headers. */
  async function addressOf(peer: string, trusted: string[], headers: Record<string, string>): Promise<string> {
    const app = new Hono();
    app.get("/", (c) => c.text(clientAddress(c, peer, trusted)));
    return (await app.request("/", { headers })).text();
  }

  it("is the transport peer when the peer is not a trusted proxy, whatever the forwarding headers say (predecessor 14.1 #7)", async () => {
    expect(await addressOf("203.0.113.9", [], { "X-Forwarded-For": "10.0.0.1", "X-Real-IP": "10.0.0.2" })).toBe("203.0.113.9");
    expect(await addressOf("203.0.113.9", ["127.0.0.1"], { "X-Forwarded-For": "10.0.0.1" })).toBe("203.0.113.9");
  });

  it("behind trusted proxies is the right-most X-Forwarded-For entry that is not a trusted proxy, ports and brackets stripped", async () => {
    const trusted = ["127.0.0.1", "10.0.0.5"];
    expect(await addressOf("127.0.0.1", trusted, { "X-Forwarded-For": "6.6.6.6, 192.0.2.44, 10.0.0.5" })).toBe("192.0.2.44");
    expect(await addressOf("::ffff:127.0.0.1", trusted, { "X-Forwarded-For": "192.0.2.44:51234" })).toBe("192.0.2.44");
    expect(await addressOf("127.0.0.1", trusted, { "X-Forwarded-For": "[2001:db8::7]:443" })).toBe("2001:db8::7");
    expect(await addressOf("127.0.0.1", trusted, { "X-Forwarded-For": "10.0.0.5" })).toBe("10.0.0.5");
    expect(await addressOf("127.0.0.1", trusted, { "X-Real-IP": "192.0.2.50" })).toBe("192.0.2.50");
    // What stands where the client should be is not an address: the peer, not the text.
    expect(await addressOf("127.0.0.1", trusted, { "X-Forwarded-For": "192.0.2.44, <script>" })).toBe("127.0.0.1");
    expect(await addressOf("127.0.0.1", trusted, { "X-Real-IP": "unknown" })).toBe("127.0.0.1");
  });
});

describe("SlidingWindowLimiter", () => {
  it("allows N requests in any window and says how long to wait", () => {
    const limiter = new SlidingWindowLimiter(3, 60_000);
    expect([0, 1000, 2000].map((t) => limiter.check("a", t))).toEqual([0, 0, 0]);
    expect(limiter.check("a", 30_000)).toBe(30_000);
    expect(limiter.check("b", 30_000)).toBe(0);
    // The window slides: at 60.001 s the first request has left it.
    expect(limiter.check("a", 60_001)).toBe(0);
    expect(limiter.check("a", 60_002)).toBeGreaterThan(0);
  });

  it("evicts keys whose window has passed every 1024 checks, with no background task", () => {
    const limiter = new SlidingWindowLimiter(100, 1000);
    for (let i = 0; i < 1000; i++) limiter.check(`client-${i}`, 0);
    expect(limiter.size).toBe(1000);
    for (let i = 0; i < 24; i++) limiter.check("late", 5000);
    expect(limiter.size).toBe(1);
  });
});

describe("limiterKey", () => {
  it("counts IPv6 clients by their /64 network and everything else by its address", () => {
    expect(limiterKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(limiterKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(limiterKey("2001:db8::5")).toBe("2001:db8:0:0::/64");
    expect(limiterKey("[2001:db8:1:2::9]")).toBe("2001:db8:1:2::/64");
    expect(limiterKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(limiterKey("::1")).toBe("0:0:0:0::/64");
    expect(limiterKey("::ffff:10.0.0.1")).toBe("10.0.0.1");
    expect(limiterKey("192.0.2.7")).toBe("192.0.2.7");
    expect(limiterKey("unknown")).toBe("unknown");
  });

  it("puts two addresses of one /64 in one window, and two /64s in two", () => {
    const limiter = new SlidingWindowLimiter(1, 60_000);
    expect(limiter.check(limiterKey("2001:db8:1:2::a"), 0)).toBe(0);
    expect(limiter.check(limiterKey("2001:db8:1:2::b"), 1)).toBeGreaterThan(0);
    expect(limiter.check(limiterKey("2001:db8:1:3::a"), 2)).toBe(0);
  });
});

describe("rate limit over HTTP", () => {
  it("answers 429 RATE_LIMITED with Retry-After and detail once a client is over the limit", async () => {
    const service = await startTestService({ rateLimit: 3 });
    services.push(service);
    for (let i = 0; i < 3; i++) expect((await fetch(`${service.url}/api/health`)).status).toBe(200);
    const limited = await fetch(`${service.url}/api/health`);
    expect(limited.status).toBe(429);
    const seconds = Number(limited.headers.get("Retry-After"));
    expect(seconds).toBeGreaterThan(55);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(await limited.json()).toMatchObject({ code: "RATE_LIMITED", detail: `retry in ${seconds}s` });
    // Every response carries the informational and security headers, this one included.
    expect(limited.headers.get("X-Service-Version")).toBe("9.9.9-test");
    expect(limited.headers.get("X-Content-Type-Options")).toBe("nosniff");
    // Tracing sits outside the limiter: the refused request is logged.
    expect(service.lines.at(-1)).toMatch(/GET \/api\/health 429/);
  });

  it("ignores X-Forwarded-For unless the peer is a trusted proxy", async () => {
    const untrusted = await startTestService({ rateLimit: 2 });
    services.push(untrusted);
    const statuses: number[] = [];
    for (const ip of ["10.0.0.1", "10.0.0.2", "10.0.0.3"]) statuses.push((await fetch(`${untrusted.url}/api/health`, { headers: { "X-Forwarded-For": ip } })).status);
    expect(statuses).toEqual([200, 200, 429]);

    const trusted = await startTestService({ rateLimit: 2, trustedProxies: ["127.0.0.1"] });
    services.push(trusted);
    const perClient: number[] = [];
    for (const ip of ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.1", "10.0.0.1"]) perClient.push((await fetch(`${trusted.url}/api/health`, { headers: { "X-Forwarded-For": `${ip}, 127.0.0.1` } })).status);
    expect(perClient).toEqual([200, 200, 200, 200, 429]);
    const viaRealIp = await fetch(`${trusted.url}/api/health`, { headers: { "X-Real-IP": "10.9.9.9" } });
    expect(viaRealIp.status).toBe(200);
  });

  it("is off with a limit of 0", async () => {
    const service = await startTestService({ rateLimit: 0 });
    services.push(service);
    for (let i = 0; i < 150; i++) expect((await fetch(`${service.url}/api/health`)).status).toBe(200);
  });
});
