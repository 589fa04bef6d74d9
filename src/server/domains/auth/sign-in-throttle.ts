/**
 * Slows down password guessing: failed sign-ins are counted per account (the username, whether or not it
 * exists, so the answer reveals nothing) and per client address. Once an account has failed `maxFailures`
 * times, or an address `addressFailures` times, further attempts for it are refused with 429 RATE_LIMITED
 * and Retry-After before any password is checked, for a delay that doubles with every further failure (1 s,
 * 2 s, 4 s, … up to `maxDelayMs`). A count is forgotten `windowMs` after its last failure; a successful
 * sign-in clears the account's count (not the address's: an attacker with an account of their own must not
 * be able to reset the count of the address they guess from). The address allows more failures than an
 * account because a lab often shares one address behind a NAT. Memory is bounded: stale counts are swept
 * as the throttle is used, and past `maxKeys` per kind the least recently failed are dropped first.
 */
import { ServiceError } from "../../errors.js";
import { limiterKey } from "../../middleware/rate-limit.js";

/** How hard sign-in failures are throttled. */
export interface SignInThrottleSettings {
  /** Failures of one account before its attempts are delayed; 0 turns the throttle off. */
  maxFailures: number;
  /** Failures from one address before its attempts are delayed (default 4 × maxFailures). */
  addressFailures?: number;
  /** A count is forgotten this long after its last failure (default 15 minutes). */
  windowMs?: number;
  /** The first delay (default 1 s); each further failure doubles it. */
  baseDelayMs?: number;
  /** The longest delay (default 5 minutes). */
  maxDelayMs?: number;
  /** Counts kept per kind (accounts, addresses) at most (default 10,000). */
  maxKeys?: number;
  /** The clock, for tests. */
  now?: () => number;
}


/** Failures of one key within the window. */
interface FailureCount {
  failures: number;
  lastFailureAt: number;
  /** Attempts are refused until then (0: not throttled). */
  blockedUntil: number;
}

/** Failure counts of one kind of key, least recently failed first (a Map keeps insertion order). */
class FailureCounts {
  private readonly counts = new Map<string, FailureCount>();
  private writes = 0;

  constructor(
    private readonly threshold: number,
    private readonly settings: Required<Omit<SignInThrottleSettings, "maxFailures" | "addressFailures" | "now">>,
  ) {}

  /** Milliseconds until `key` may try again (0: now). */
  waitMs(key: string, now: number): number {
    const count = this.live(key, now);
    return count && count.blockedUntil > now ? count.blockedUntil - now : 0;
  }

  /** Counts a failure of `key`; past the threshold it delays the next attempt. */
  fail(key: string, now: number): void {
    if (++this.writes % 256 === 0) this.sweep(now);
    const count = this.live(key, now) ?? { failures: 0, lastFailureAt: now, blockedUntil: 0 };
    count.failures++;
    count.lastFailureAt = now;
    if (count.failures >= this.threshold) {
      const doublings = Math.min(count.failures - this.threshold, 30);
      count.blockedUntil = now + Math.min(this.settings.maxDelayMs, this.settings.baseDelayMs * 2 ** doublings);
    }
    // Re-inserted at the end: the map stays ordered by last failure, so the oldest go first when it is full.
    this.counts.delete(key);
    this.counts.set(key, count);
    while (this.counts.size > this.settings.maxKeys) this.counts.delete(this.counts.keys().next().value!);
  }

  /** Forgets `key`'s failures. */
  clear(key: string): void {
    this.counts.delete(key);
  }

  /** Keys counted now (for tests of the bound). */
  get size(): number {
    return this.counts.size;
  }

  private live(key: string, now: number): FailureCount | undefined {
    const count = this.counts.get(key);
    if (count && now - count.lastFailureAt >= this.settings.windowMs) {
      this.counts.delete(key);
      return undefined;
    }
    return count;
  }

  /** Drops counts whose window has passed; they are the oldest, so the walk stops at the first live one. */
  private sweep(now: number): void {
    for (const [key, count] of this.counts) {
      if (now - count.lastFailureAt < this.settings.windowMs) break;
      this.counts.delete(key);
    }
  }
}

/** The sign-in throttle; its `beforeSignIn` and `afterSignIn` are the hooks of `authRoutes`. */
export class SignInThrottle {
  private readonly accounts: FailureCounts;
  private readonly addresses: FailureCounts;
  private readonly now: () => number;
  readonly enabled: boolean;

  constructor(settings: SignInThrottleSettings) {
    const shared = {
      windowMs: settings.windowMs ?? 15 * 60_000,
      baseDelayMs: settings.baseDelayMs ?? 1000,
      maxDelayMs: settings.maxDelayMs ?? 5 * 60_000,
      maxKeys: settings.maxKeys ?? 10_000,
    };
    this.enabled = settings.maxFailures > 0;
    this.accounts = new FailureCounts(settings.maxFailures, shared);
    this.addresses = new FailureCounts(settings.addressFailures ?? 4 * settings.maxFailures, shared);
    this.now = settings.now ?? Date.now;
  }

  /** Refuses with 429 RATE_LIMITED (and Retry-After) when this account or this address failed too often. */
  beforeSignIn(username: string, address: string | null): void {
    if (!this.enabled) return;
    const now = this.now();
    const accountWait = this.accounts.waitMs(accountKey(username), now);
    const addressWait = address === null ? 0 : this.addresses.waitMs(limiterKey(address), now);
    const waitMs = Math.max(accountWait, addressWait);
    if (waitMs === 0) return;
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    const which = accountWait >= addressWait ? "this account" : "this address";
    throw new ServiceError("RATE_LIMITED", `too many failed sign-ins for ${which}; try again in ${seconds} s`, {
      detail: `retry in ${seconds}s`,
      suggestion: "wait, then check the username and password; an administrator can reset a forgotten password",
      headers: { "Retry-After": String(seconds) },
    });
  }

  /** Counts a failed sign-in against the account and the address; a success clears the account's count. */
  afterSignIn(username: string, address: string | null, succeeded: boolean): void {
    if (!this.enabled) return;
    const now = this.now();
    if (succeeded) {
      this.accounts.clear(accountKey(username));
      return;
    }
    this.accounts.fail(accountKey(username), now);
    if (address !== null) this.addresses.fail(limiterKey(address), now);
  }

  /** Accounts and addresses counted now (for tests of the memory bound). */
  get size(): { accounts: number; addresses: number } {
    return { accounts: this.accounts.size, addresses: this.addresses.size };
  }
}

/** Usernames are unique regardless of case, so `Alice` and `alice` share a count. */
function accountKey(username: string): string {
  return username.toLowerCase();
}
