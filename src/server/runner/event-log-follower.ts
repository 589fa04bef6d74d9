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
import { closeSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import { parseEventLine, type RunEvent } from "../../engine/run/event-log.js";
import { forEachLine, forEachWorkspaceLine, openInWorkspace } from "./workspace-reader.js";

/** The longest line taken as an event (the engine's lines are a few hundred bytes; a job's error text is cut by the engine). */
export const EVENT_LINE_MAX_BYTES = 1024 * 1024;

/** The most one drain reads, so that a log written faster than it is read never holds the event loop long. */
const DRAIN_MAX_BYTES = 32 * 1024 * 1024;

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

/** Reads new complete lines of an event log and passes each parsed event on. */
export class EventLogFollower {
  private offset = 0;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** The run's workspace: the log is read only inside it. */
    readonly root: string,
    readonly path: string,
    private readonly onEvent: (event: RunEvent) => void,
    private readonly pollMs = 500,
  ) {}

  /** Reads what is there and starts watching for more. */
  start(): void {
    this.drain();
    try {
      const name = basename(this.path);
      this.watcher = watch(dirname(this.path), { persistent: false }, (_kind, file) => {
        if (file === null || file === name) this.drain();
      });
      this.watcher.on("error", () => this.stopWatching());
    } catch {
      // No watch (the folder is missing or watches are exhausted): the poll alone keeps up.
    }
    this.timer = setInterval(() => this.drain(), this.pollMs);
    this.timer.unref();
  }

  /** Reads the complete lines appended since the last read (at most DRAIN_MAX_BYTES of them; the poll reads on). */
  drain(): void {
    const fd = openInWorkspace(this.root, this.path);
    if (fd === undefined) return; // not written yet, or not a file the service reads
    try {
      this.offset = forEachLine(fd, { offset: this.offset, maxBytes: DRAIN_MAX_BYTES, maxLineBytes: EVENT_LINE_MAX_BYTES }, (line) => {
        const event = parseEventLine(line);
        if (event) this.onEvent(event);
      });
    } finally {
      closeSync(fd);
    }
  }

  /** Reads everything still unread (a run's end: the engine has written its last line). */
  drainAll(): void {
    for (let rounds = 0; rounds < EVENT_LOG_MAX_BYTES / DRAIN_MAX_BYTES; rounds++) {
      const before = this.offset;
      this.drain();
      if (this.offset === before) return;
    }
  }

  /** Stops watching (a final `drainAll()` first reads what the engine wrote last). */
  stop(): void {
    this.stopWatching();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private stopWatching(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }
}
