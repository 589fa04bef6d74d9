/**
 * Follows a run's event log as the engine appends to it: a file-system watch on the log's folder wakes
 * the reader as soon as a line is written (so SSE subscribers hear of a job within milliseconds), and a
 * slow poll covers file systems where watches do not fire (network mounts). Only complete lines are
 * handed on; a line being written is read again once its newline arrives.
 *
 * The log lies in the run's workspace, where jobs write too: it is read only as a regular file inside
 * the workspace, never through a link, never waiting on a FIFO (workspace-reader.ts), a bounded amount
 * per read, and a line too long to be an event is skipped.
 */
import { closeSync, fstatSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import { parseEventLine, type RunEvent } from "../../engine/run/event-log.js";
import { forEachLine, forEachWorkspaceLine, openInWorkspace } from "./workspace-reader.js";

/** The longest line taken as an event (the engine's lines are a few hundred bytes; a job's error text is cut by the engine). */
export const EVENT_LINE_MAX_BYTES = 1024 * 1024;

/** The most one drain reads (a few tens of milliseconds of parsing), so that a log written faster than it is read never holds the event loop long. */
const DRAIN_MAX_BYTES = 4 * 1024 * 1024;

/** The least time between two drains a watch wakes: a job appending without pause gets a drain per interval, not one per write. */
const DRAIN_SPACING_MS = 50;

/** The most of an event log the service reads whole (a run of 100,000 jobs writes about 100 MB). */
export const EVENT_LOG_MAX_BYTES = 512 * 1024 * 1024;

/** The events of a run's log in its workspace, up to EVENT_LOG_MAX_BYTES; none when it cannot be read. */
export function readWorkspaceEventLog(root: string, path: string): RunEvent[] {
  const events: RunEvent[] = [];
  forEachWorkspaceLine(root, path, { maxBytes: EVENT_LOG_MAX_BYTES, maxLineBytes: EVENT_LINE_MAX_BYTES }, (line) => {
    const event = parseEventLine(line);
    if (event) events.push(event);
  });
  return events;
}

/** Caps of one follower (defaults: DRAIN_MAX_BYTES per drain, EVENT_LOG_MAX_BYTES in all). */
export interface FollowerCaps {
  drainBytes?: number;
  totalBytes?: number;
  /** Told once, when the total cap stops the follower (for the service's log). */
  onCapped?: (note: string) => void;
}

/** Reads new complete lines of an event log and passes each parsed event on. */
export class EventLogFollower {
  private offset = 0;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private pending: NodeJS.Timeout | undefined;
  private capped = false;
  private lastDrainAt = 0;
  private readonly drainBytes: number;
  private readonly totalBytes: number;

  constructor(
    /** The run's workspace: the log is read only inside it. */
    readonly root: string,
    readonly path: string,
    private readonly onEvent: (event: RunEvent) => void,
    private readonly pollMs = 500,
    private readonly caps: FollowerCaps = {},
  ) {
    this.drainBytes = caps.drainBytes ?? DRAIN_MAX_BYTES;
    this.totalBytes = caps.totalBytes ?? EVENT_LOG_MAX_BYTES;
  }

  /** Reads what is there and starts watching for more. */
  start(): void {
    this.drain();
    try {
      const name = basename(this.path);
      this.watcher = watch(dirname(this.path), { persistent: false }, (_kind, file) => {
        if (file === null || file === name) this.drainSoon();
      });
      this.watcher.on("error", () => this.stopWatching());
    } catch {
      // No watch (the folder is missing or watches are exhausted): the poll alone keeps up.
    }
    this.timer = setInterval(() => this.drain(), this.pollMs);
    this.timer.unref();
  }

  /** A drain now when the last was at least DRAIN_SPACING_MS ago (a line is heard at once), else one at the end of the spacing: at most one per interval, however often the watch fires. */
  private drainSoon(): void {
    if (this.pending) return;
    const wait = this.lastDrainAt + DRAIN_SPACING_MS - Date.now();
    if (wait <= 0) {
      this.drain();
      return;
    }
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.drain();
    }, wait);
    this.pending.unref();
  }

  /** Reads the complete lines appended since the last read (at most the drain size of them; the poll reads on), until the total cap. */
  drain(): void {
    if (this.capped) return;
    this.lastDrainAt = Date.now();
    const fd = openInWorkspace(this.root, this.path);
    if (fd === undefined) return; // not written yet, or not a file the service reads
    try {
      const remaining = this.totalBytes - this.offset;
      const before = this.offset;
      if (remaining > 0) {
        this.offset = forEachLine(fd, { offset: this.offset, maxBytes: Math.min(this.drainBytes, remaining), maxLineBytes: EVENT_LINE_MAX_BYTES }, (line) => {
          const event = parseEventLine(line);
          if (event) this.onEvent(event);
        });
      }
      // At the cap, or held before it by a line that would cross it: nothing more is read, ever.
      if (remaining <= 0 || (this.offset === before && remaining < this.drainBytes && fstatSync(fd).size > this.totalBytes)) this.stopAtCap();
    } finally {
      closeSync(fd);
    }
  }

  private stopAtCap(): void {
    this.capped = true;
    this.stop();
    this.caps.onCapped?.(`the event log ${this.path} is not read beyond ${Math.round(this.totalBytes / (1024 * 1024))} MiB: later events are not shown`);
  }

  /** Reads everything still unread (a run's end: the engine has written its last line). */
  drainAll(): void {
    for (let rounds = 0; rounds <= this.totalBytes / this.drainBytes + 1; rounds++) {
      const before = this.offset;
      this.drain();
      if (this.offset === before) return;
    }
  }

  /** Stops watching (a final `drainAll()` first reads what the engine wrote last). */
  stop(): void {
    this.stopWatching();
    if (this.timer) clearInterval(this.timer);
    if (this.pending) clearTimeout(this.pending);
    this.timer = undefined;
    this.pending = undefined;
  }

  private stopWatching(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }
}
