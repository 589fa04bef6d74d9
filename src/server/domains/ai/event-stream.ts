/**
 * Request-scoped server-sent events with named events (`event: progress`, `event: done`, …), used by the
 * streamed translate and the chat copilot. The work gets an abort signal that fires when the client goes
 * away, so a provider call in flight is cancelled instead of running on for nobody. A `: ping` comment
 * keeps proxies from closing a quiet stream. Never compressed (the compression middleware skips the type).
 */
import type { Context } from "hono";

/** Sends one named event. */
export type SendEvent = (event: string, data: unknown) => void;

const encoder = new TextEncoder();
const SSE_HEADERS = { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "keep-alive", "X-Accel-Buffering": "no" };

/** Runs `work` while streaming its events; the stream ends when the work settles or the client leaves. */
export function namedEventStream(c: Context, work: (send: SendEvent, signal: AbortSignal) => Promise<void>, options: { pingMs?: number } = {}): Response {
  const abort = new AbortController();
  const requestSignal = c.req.raw.signal;
  const onRequestAbort = () => abort.abort();
  requestSignal?.addEventListener("abort", onRequestAbort, { once: true });
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const write = (text: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          open = false;
        }
      };
      const send: SendEvent = (event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      timer = setInterval(() => write(": ping\n\n"), options.pingMs ?? 15_000);
      write(": stream open\n\n");
      void work(send, abort.signal)
        .catch(() => {}) // the work reports its own failures as events
        .finally(() => {
          clearInterval(timer);
          requestSignal?.removeEventListener("abort", onRequestAbort);
          if (!open) return;
          open = false;
          try {
            controller.close();
          } catch {
            // already closed by a cancel
          }
        });
    },
    cancel() {
      clearInterval(timer);
      abort.abort();
    },
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}
