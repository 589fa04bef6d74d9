/**
 * Server-sent events read from a `fetch` body: the typed client cannot stream, and `EventSource` cannot
 * POST, so the streamed AI endpoints are read here. Named events (`event: progress`) with their `data:`
 * lines, parsed by the rules of the SSE format: a chunk may end anywhere (mid-line, between `\r` and `\n`,
 * inside a multi-byte character), comments (`: ping`) are skipped, and several `data:` lines join with `\n`.
 * No DOM or app imports, so it is tested on its own.
 */

/** One event: its name (`message` when the stream gave none) and its data text. */
export interface NamedEvent {
  event: string;
  data: string;
}

/** Turns text pieces, cut anywhere, into whole events. */
export class NamedEventParser {
  private pending = "";
  private skipNewline = false;
  private name = "";
  private data: string[] = [];

  /** The events completed by this piece of text. */
  push(text: string): NamedEvent[] {
    const events: NamedEvent[] = [];
    let at = 0;
    // A "\r\n" split across pieces: the "\n" opening this piece ends nothing more.
    if (this.skipNewline && text.startsWith("\n")) at = 1;
    this.skipNewline = false;
    while (at < text.length) {
      const end = lineEnd(text, at);
      if (end === -1) {
        this.pending += text.slice(at);
        break;
      }
      const line = this.pending + text.slice(at, end);
      this.pending = "";
      if (text[end] === "\r" && end + 1 === text.length) this.skipNewline = true;
      at = text[end] === "\r" && text[end + 1] === "\n" ? end + 2 : end + 1;
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  /** The event left unfinished when the stream ended (a server that did not end it with a blank line). */
  end(): NamedEvent[] {
    const events: NamedEvent[] = [];
    if (this.pending) {
      const event = this.line(this.pending);
      this.pending = "";
      if (event) events.push(event);
    }
    const last = this.line("");
    if (last) events.push(last);
    return events;
  }

  private line(line: string): NamedEvent | undefined {
    if (line === "") {
      if (this.data.length === 0) {
        this.name = "";
        return undefined;
      }
      const event = { event: this.name || "message", data: this.data.join("\n") };
      this.name = "";
      this.data = [];
      return event;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.name = value;
    else if (field === "data") this.data.push(value);
    return undefined;
  }
}

function lineEnd(text: string, from: number): number {
  for (let index = from; index < text.length; index++) {
    const char = text[index];
    if (char === "\n" || char === "\r") return index;
  }
  return -1;
}

/** Reads a response body to its end, handing each event to `onEvent` as it arrives. */
export async function readNamedEvents(body: ReadableStream<Uint8Array>, onEvent: (event: NamedEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new NamedEventParser();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const event of parser.push(decoder.decode(value, { stream: true }))) onEvent(event);
    }
    for (const event of [...parser.push(decoder.decode()), ...parser.end()]) onEvent(event);
  } finally {
    reader.releaseLock();
  }
}
