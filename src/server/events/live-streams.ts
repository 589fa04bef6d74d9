/**
 * The open `GET /api/events` streams, each with the account and credential it was opened with, so that a
 * stream lasts only as long as the permission it was opened with. The auth service reports what it ends or
 * changes (a sign-out, a revoked token, a password reset, a role change, a deleted account) and the
 * streams concerned end at once; a periodic re-check of every stream's credential catches what reaches the
 * database another way (`strand user add`, a second service process, a session that expired) within the
 * re-check interval. An ended stream's client reconnects and is authenticated afresh: refused, or shown
 * what its account may see now.
 *
 * It also holds each user to a number of streams at once: over it, a new stream is refused with 429
 * rather than an old one closed, because closing the oldest lets one leaked credential or runaway script
 * knock the user's own tabs off, and reconnecting tabs would then evict each other in turn for ever.
 */
import type { Caller } from "../caller.js";
import type { CredentialChange, CredentialRef } from "../credential-changes.js";
import { ServiceError } from "../errors.js";

/** How a stream's credential is checked again and how its changes are heard of (the auth service). */
export interface CredentialAuthority {
  /** Who the credential stands for now; null when it no longer works. */
  currentCaller(credential: CredentialRef): Promise<Caller | null>;
  /** Calls `listener` after each change that ends a credential or changes an account. */
  onCredentialChange(listener: (change: CredentialChange) => void): void;
}

export interface LiveStreamsOptions {
  /** Streams one user may hold at once; 0: no limit. */
  perUser: number;
  /** How often every stream's credential is checked again (default 30 s). */
  recheckMs?: number;
  /** Where credentials are checked and changes heard of; none (personal mode): streams are only counted. */
  authority?: CredentialAuthority;
}

/** What a stream was opened as. */
export interface StreamHolder {
  caller: Caller;
  /** The credential of the request; null when there is none (personal mode). */
  credential: CredentialRef | null;
}

/** The default re-check interval. */
export const DEFAULT_RECHECK_MS = 30_000;

/** How long a refused client is asked to wait: streams free up only when a client goes, which no one can predict. */
const RETRY_AFTER_S = 30;

interface LiveStream extends StreamHolder {
  end(): void;
}

/** The registry of open event streams. */
export class LiveStreams {
  private readonly streams = new Set<LiveStream>();
  private readonly perUserCount = new Map<string, number>();
  private readonly recheckMs: number;
  private timer: NodeJS.Timeout | undefined;
  private checking = false;

  constructor(private readonly options: LiveStreamsOptions) {
    this.recheckMs = options.recheckMs ?? DEFAULT_RECHECK_MS;
    options.authority?.onCredentialChange((change) => this.endWhere(affectedBy(change)));
  }

  /**
   * Takes a place for a stream of `holder`, or throws 429 RATE_LIMITED when the user holds the most they
   * may. `end` closes the stream; the answer gives the place back (call it once the stream is over, however it ended).
   */
  admit(holder: StreamHolder, end: () => void): () => void {
    const userId = holder.caller.id;
    const held = this.perUserCount.get(userId) ?? 0;
    const limit = this.options.perUser;
    if (limit > 0 && held >= limit) {
      throw new ServiceError("RATE_LIMITED", `you have ${held} event streams open; one user may have ${limit} at once (SERVICE_EVENT_STREAMS_PER_USER=${limit})`, {
        suggestion: "close a browser tab or a script that follows GET /api/events, or ask an administrator to raise SERVICE_EVENT_STREAMS_PER_USER",
        headers: { "Retry-After": String(RETRY_AFTER_S) },
      });
    }
    const stream: LiveStream = { ...holder, end };
    this.streams.add(stream);
    this.perUserCount.set(userId, held + 1);
    this.startChecking();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.streams.delete(stream);
      const left = (this.perUserCount.get(userId) ?? 1) - 1;
      if (left > 0) this.perUserCount.set(userId, left);
      else this.perUserCount.delete(userId);
      if (this.streams.size === 0) this.stopChecking();
    };
  }

  /** Open streams (all users). */
  get size(): number {
    return this.streams.size;
  }

  /** Ends every stream `matches` picks (each stream's `end` releases its place). */
  private endWhere(matches: (stream: StreamHolder) => boolean): void {
    for (const stream of [...this.streams]) if (matches(stream)) stream.end();
  }

  private startChecking(): void {
    if (this.timer || !this.options.authority) return;
    this.timer = setInterval(() => void this.recheck(), this.recheckMs);
    // The re-check never keeps the process alive on its own.
    this.timer.unref();
  }

  private stopChecking(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Checks each credential once (streams sharing one share the look-up) and ends the streams it no longer allows as they are. */
  private async recheck(): Promise<void> {
    const authority = this.options.authority;
    // A slow database must not pile re-checks on each other.
    if (!authority || this.checking) return;
    this.checking = true;
    try {
      const byCredential = new Map<string, LiveStream[]>();
      for (const stream of this.streams) {
        if (!stream.credential) continue;
        const key = `${stream.credential.via}:${stream.credential.id}`;
        byCredential.set(key, [...(byCredential.get(key) ?? []), stream]);
      }
      for (const streams of byCredential.values()) {
        let now: Caller | null;
        try {
          now = await authority.currentCaller(streams[0]!.credential!);
        } catch {
          // Fail closed: a client that reconnects is authenticated afresh (or told why it cannot be).
          now = null;
        }
        for (const stream of streams) if (!stillAllowed(stream.caller, now)) stream.end();
      }
    } finally {
      this.checking = false;
    }
  }
}

/** Whether a stream opened as `opened` may go on for a credential that now stands for `now`: same account, same role. */
function stillAllowed(opened: Caller, now: Caller | null): boolean {
  return now !== null && now.id === opened.id && now.role === opened.role && now.admin === opened.admin;
}

/** Which streams a change ends. */
function affectedBy(change: CredentialChange): (stream: StreamHolder) => boolean {
  switch (change.kind) {
    case "session-ended":
      return ({ credential }) => credential?.via === "session" && credential.id === change.sessionId;
    case "token-revoked":
      return ({ credential }) => credential?.via === "access-token" && credential.id === change.tokenId;
    case "sessions-ended":
      return ({ caller, credential }) => caller.id === change.userId && credential?.via === "session" && credential.id !== change.exceptSessionId;
    case "account-changed":
      return ({ caller }) => caller.id === change.userId;
  }
}
