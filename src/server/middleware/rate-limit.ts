/**
 * The rate limiter: at most N requests per client in any 60-second sliding window. The client address is
 * the transport peer, unless that peer is a proxy named in `SERVICE_TRUSTED_PROXY`; then the right-most
 * `X-Forwarded-For` entry that is not a trusted proxy (or `X-Real-IP`) counts (see `clientAddress`). IPv6 clients are counted by their /64 network (one
 * subscriber gets a whole /64, so counting single addresses would let one client rotate through them).
 * Keys whose window has passed are evicted every 1024 checks, so there is no background timer.
 */
import { isIP } from "node:net";
import type { Context, MiddlewareHandler } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";
import { ServiceError } from "../errors.js";

export interface RateLimitOptions {
  /** Requests per window; 0 turns the limiter off. */
  limit: number;
  windowMs?: number;
  /** Peer addresses of reverse proxies whose forwarding headers are believed. */
  trustedProxies?: string[];
  /** The clock, for tests. */
  now?: () => number;
  /** The peer address of a request (default: the socket's remote address). */
  peerAddress?: (c: Context) => string | undefined;
}

const EVICT_EVERY = 1024;

/** A sliding-window log of request times per key. */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();
  private checks = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Records a request at `now`; returns 0 when allowed, else the milliseconds until one is allowed. */
  check(key: string, now: number): number {
    if (++this.checks % EVICT_EVERY === 0) this.evict(now);
    const start = now - this.windowMs;
    let times = this.hits.get(key);
    if (!times) {
      times = [];
      this.hits.set(key, times);
    }
    let drop = 0;
    while (drop < times.length && times[drop]! <= start) drop++;
    if (drop > 0) times.splice(0, drop);
    if (times.length >= this.limit) return times[0]! + this.windowMs - now;
    times.push(now);
    return 0;
  }

  /** Keys tracked now (for tests of the eviction). */
  get size(): number {
    return this.hits.size;
  }

  private evict(now: number): void {
    const start = now - this.windowMs;
    for (const [key, times] of this.hits) if (times.length === 0 || times[times.length - 1]! <= start) this.hits.delete(key);
  }
}

/** The transport peer address of a request, when the server adapter knows it. */
export function transportPeer(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/** Whether a transport peer is one of the trusted proxies (an IPv4-mapped peer counts as its IPv4 address). */
export function isTrustedProxy(peer: string | undefined, trustedProxies: readonly string[]): boolean {
  return peer !== undefined && trustedProxies.length > 0 && trustedProxies.includes(peer.replace(/^::ffff:/, ""));
}

/** An address from a forwarding header without brackets or a port (`[::1]:80`, `10.0.0.1:5000`); undefined when it is no IP address. */
function forwardedAddress(entry: string): string | undefined {
  let address = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(":"));
  return isIP(address) ? address : undefined;
}

/**
 * The client address of a request: the transport peer, unless that peer is a trusted proxy. Behind trusted
 * proxies it is the right-most `X-Forwarded-For` entry that is not itself a trusted proxy (each proxy appends
 * the peer it saw, so entries left of that were written by the client and prove nothing), or `X-Real-IP`
 * when there is no `X-Forwarded-For`. A malformed entry where the client should be leaves the peer.
 */
export function clientAddress(c: Context, peer: string | undefined, trustedProxies: string[]): string {
  const address = peer ?? "unknown";
  if (!isTrustedProxy(peer, trustedProxies)) return address;
  const header = c.req.header("X-Forwarded-For");
  if (header === undefined) {
    const real = c.req.header("X-Real-IP");
    return (real === undefined ? undefined : forwardedAddress(real)) ?? address;
  }
  const entries = header.split(",").filter((entry) => entry.trim() !== "");
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = forwardedAddress(entries[index]!);
    if (entry === undefined) return address;
    if (!isTrustedProxy(entry, trustedProxies) || index === 0) return entry;
  }
  return address;
}

/** What the limiter counts a client address as: an IPv6 address by its /64 network, anything else as it is. */
export function limiterKey(address: string): string {
  const plain = address.replace(/^\[|\]$/g, "").split("%")[0]!;
  if (isIP(plain) !== 6 || /^::ffff:\d/i.test(plain)) return address.replace(/^::ffff:/i, "");
  const halves = plain.toLowerCase().split("::");
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const groups = halves.length === 2 ? [...head, ...Array<string>(8 - head.length - tail.length).fill("0"), ...tail] : head;
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

/** The rate-limit middleware. */
export function rateLimit(options: RateLimitOptions): MiddlewareHandler {
  if (options.limit <= 0) return async (_c, next) => next();
  const windowMs = options.windowMs ?? 60_000;
  const limiter = new SlidingWindowLimiter(options.limit, windowMs);
  const now = options.now ?? Date.now;
  const trusted = options.trustedProxies ?? [];
  const peerOf = options.peerAddress ?? transportPeer;
  return async (c, next) => {
    // The routed path: another spelling of an API path (`/%61pi/…`, `//api/…`) is counted all the same.
    if (!c.req.path.startsWith("/api")) return next();
    const waitMs = limiter.check(limiterKey(clientAddress(c, peerOf(c), trusted)), now());
    if (waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new ServiceError("RATE_LIMITED", `too many requests: at most ${options.limit} per ${windowMs / 1000} s`, {
        detail: `retry in ${seconds}s`,
        headers: { "Retry-After": String(seconds) },
      });
    }
    await next();
  };
}
