/**
 * The browser app's reader of named server-sent events (the streamed AI endpoints): whole events whatever
 * the chunk boundaries (mid-line, between CR and LF, inside a multi-byte character), comments skipped,
 * multi-line data joined.
 */
import { describe, expect, it } from "vitest";
import { NamedEventParser, readNamedEvents, type NamedEvent } from "../../src/web/ai/event-stream.js";

const STREAM = ': stream open\n\nevent: progress\ndata: {"step":"intent","message":"reading — ok"}\n\n: ping\n\nevent: done\ndata: {"a":1}\ndata: {"b":2}\n\n';
const EXPECTED: NamedEvent[] = [
  { event: "progress", data: '{"step":"intent","message":"reading — ok"}' },
  { event: "done", data: '{"a":1}\n{"b":2}' },
];

function parseInPieces(text: string, cuts: number[]): NamedEvent[] {
  const parser = new NamedEventParser();
  const events: NamedEvent[] = [];
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    events.push(...parser.push(text.slice(from, cut)));
    from = cut;
  }
  return [...events, ...parser.end()];
}

describe("named server-sent events", () => {
  it("parses a stream given whole", () => {
    expect(parseInPieces(STREAM, [])).toEqual(EXPECTED);
  });

  it("parses the same events whatever the cut, one character at a time included", () => {
    for (let cut = 1; cut < STREAM.length; cut++) expect(parseInPieces(STREAM, [cut])).toEqual(EXPECTED);
    expect(parseInPieces(STREAM, Array.from({ length: STREAM.length - 1 }, (_, index) => index + 1))).toEqual(EXPECTED);
  });

  it("accepts CRLF and CR line ends, also when CR and LF arrive in different pieces", () => {
    const crlf = STREAM.replace(/\n/g, "\r\n");
    for (let cut = 1; cut < crlf.length; cut++) expect(parseInPieces(crlf, [cut])).toEqual(EXPECTED);
    expect(parseInPieces(STREAM.replace(/\n/g, "\r"), [])).toEqual(EXPECTED);
  });

  it("names an event without a name 'message' and keeps the last event of a stream cut short", () => {
    expect(parseInPieces("data: x\n\nevent: error\ndata: {}", [])).toEqual([
      { event: "message", data: "x" },
      { event: "error", data: "{}" },
    ]);
  });

  it("reads a body whose bytes split a multi-byte character", async () => {
    const bytes = new TextEncoder().encode(STREAM);
    const split = STREAM.indexOf("—");
    const cut = new TextEncoder().encode(STREAM.slice(0, split)).length + 1; // inside the dash's three bytes
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, cut));
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    });
    const events: NamedEvent[] = [];
    await readNamedEvents(body, (event) => events.push(event));
    expect(events).toEqual(EXPECTED);
  });
});
