/**
 * The layout worker: runs elkjs off the page's thread, so placing a 500-rule graph never freezes typing.
 * Messages: `{ seq, request }` in, `{ seq, positions }` or `{ seq, error }` out.
 */
import ELK from "elkjs/lib/elk.bundled.js";
import { placeGraph, type LayoutRequest } from "./layout-engine.js";

const elk = new ELK();
const scope = self as unknown as { onmessage: ((event: MessageEvent) => void) | null; postMessage(message: unknown): void };

// Assigned after the import ran: elk.bundled.js claims `onmessage` for itself when it loads in a worker.
scope.onmessage = (event: MessageEvent<{ seq: number; request: LayoutRequest }>) => {
  const { seq, request } = event.data;
  placeGraph(elk, request).then(
    (positions) => scope.postMessage({ seq, positions }),
    (error: unknown) => scope.postMessage({ seq, error: error instanceof Error ? error.message : String(error) }),
  );
};
