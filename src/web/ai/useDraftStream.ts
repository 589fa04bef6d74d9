/**
 * Drafting a pipeline from a sentence over `POST /api/ai/translate/stream`: the progress events as they
 * come, then the draft or the failure. Cancelling aborts the request, which also stops the model call on
 * the service. Nothing is
 * saved: the draft is handed to the page, which shows it until the user takes it.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { components } from "../../client/api-types.js";
import { openDraftStream } from "../api/ai.js";
import { ApiError } from "../api/errors.js";
import { readNamedEvents } from "./event-stream.js";

/** The draft as the `done` event (and `POST /api/ai/translate`) carries it. */
export type Draft = components["schemas"]["TranslateResult"];

/** One `progress` event of the stream. */
export interface DraftProgress {
  step: "intent" | "match" | "generate" | "validate" | "correct" | "fallback" | "done";
  message: string;
  round?: number;
  provider?: string;
  valid?: boolean;
  errors?: { code: string; message: string }[];
  templates_count?: number;
  intent?: string;
}

/** Where a drafting request is. */
export type DraftState =
  | { phase: "idle" }
  | { phase: "drafting"; progress: DraftProgress[] }
  | { phase: "done"; progress: DraftProgress[]; draft: Draft }
  | { phase: "failed"; progress: DraftProgress[]; error: Error }
  | { phase: "cancelled"; progress: DraftProgress[] };

/** What the user asks for: the sentence and, optionally, what the data looks like. */
export interface DraftRequest {
  intent: string;
  data?: Record<string, unknown>;
}

/** The drafting state, `start` (a new request replaces one in flight) and `cancel`. */
export function useDraftStream() {
  const [state, setState] = useState<DraftState>({ phase: "idle" });
  const current = useRef<AbortController | null>(null);

  // Leaving the page stops the request (and the model call behind it).
  useEffect(() => () => current.current?.abort(), []);

  const start = useCallback(async (request: DraftRequest) => {
    current.current?.abort();
    const abort = new AbortController();
    current.current = abort;
    const progress: DraftProgress[] = [];
    const update = (next: DraftState) => {
      if (current.current === abort) setState(next);
    };
    update({ phase: "drafting", progress: [] });
    try {
      const stream = await openDraftStream({ intent: request.intent, ...(request.data ? { context: { data: request.data } } : {}) }, abort.signal);
      let finished = false;
      await readNamedEvents(stream, ({ event, data }) => {
        if (finished) return;
        const payload = parse(data);
        if (event === "progress") {
          progress.push(payload as DraftProgress);
          update({ phase: "drafting", progress: [...progress] });
        } else if (event === "done") {
          finished = true;
          update({ phase: "done", progress: [...progress], draft: payload as Draft });
        } else if (event === "error") {
          finished = true;
          update({ phase: "failed", progress: [...progress], error: new ApiError(400, payload as ApiError["body"]) });
        }
      });
      if (!finished) throw new ApiError(502, { code: "STREAM_ENDED", message: "the service ended the stream before the draft was ready", suggestion: "try again; if it keeps happening, check the service's log" });
    } catch (error) {
      if (abort.signal.aborted) {
        update({ phase: "cancelled", progress: [...progress] });
        return;
      }
      update({ phase: "failed", progress: [...progress], error: error instanceof Error ? error : new Error(String(error)) });
    }
  }, []);

  const cancel = useCallback(() => {
    current.current?.abort();
  }, []);

  const reset = useCallback(() => {
    current.current?.abort();
    current.current = null;
    setState({ phase: "idle" });
  }, []);

  return { state, start, cancel, reset };
}

function parse(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return { message: data };
  }
}
