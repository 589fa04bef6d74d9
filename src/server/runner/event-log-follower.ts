/**
 * Follows a run's event log as the engine appends to it: a file-system watch on the log's folder wakes
 * the reader as soon as a line is written (so SSE subscribers hear of a job within milliseconds), and a
 * slow poll covers file systems where watches do not fire (network mounts). Only complete lines are
 * handed on; a line being written is kept until its newline arrives.
 */
import { closeSync, openSync, readSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import type { RunEvent } from "../../engine/run/event-log.js";

const CHUNK_BYTES = 64 * 1024;

/** Reads new complete lines of an event log and passes each parsed event on. */
export class EventLogFollower {
  private offset = 0;
  private pending: Buffer = Buffer.alloc(0);
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
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

  /** Reads every complete line appended since the last read. */
  drain(): void {
    let fd: number;
    try {
      fd = openSync(this.path, "r");
    } catch {
      return; // not written yet
    }
    try {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      for (;;) {
        const read = readSync(fd, chunk, 0, CHUNK_BYTES, this.offset);
        if (read <= 0) break;
        this.offset += read;
        this.pending = this.pending.length === 0 ? Buffer.from(chunk.subarray(0, read)) : Buffer.concat([this.pending, chunk.subarray(0, read)]);
        this.emitLines();
      }
    } finally {
      closeSync(fd);
    }
  }

  /** Stops watching (a final `drain()` first reads what the engine wrote last). */
  stop(): void {
    this.stopWatching();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private stopWatching(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  private emitLines(): void {
    let start = 0;
    for (;;) {
      const end = this.pending.indexOf(10, start);
      if (end < 0) break;
      const line = this.pending.toString("utf8", start, end).trim();
      start = end + 1;
      if (line === "") continue;
      let event: RunEvent;
      try {
        event = JSON.parse(line) as RunEvent;
      } catch {
        continue; // a torn line from a killed writer
      }
      if (event && typeof event === "object" && typeof event.type === "string") this.onEvent(event);
    }
    this.pending = start === 0 ? this.pending : this.pending.subarray(start);
  }
}
