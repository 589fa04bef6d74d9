/**
 * Where graph layouts are computed: in a web worker when the browser allows one (elkjs is loaded only there
 * and only when a graph is first drawn), else in the page with elkjs loaded on first use.
 */
import type { LayoutPositions, LayoutRequest } from "./layout-engine.js";

type Pending = { resolve: (positions: LayoutPositions) => void; reject: (error: Error) => void };

let worker: Worker | undefined;
let workerFailed = false;
let nextSeq = 0;
const pending = new Map<number, Pending>();

function layoutWorker(): Worker | undefined {
  if (worker || workerFailed) return worker;
  try {
    worker = new Worker(new URL("./layout.worker.ts", import.meta.url), { type: "module", name: "dag-layout" });
    worker.onmessage = (event: MessageEvent<{ seq: number; positions?: LayoutPositions; error?: string }>) => {
      const waiting = pending.get(event.data.seq);
      pending.delete(event.data.seq);
      if (!waiting) return;
      if (event.data.positions) waiting.resolve(event.data.positions);
      else waiting.reject(new Error(event.data.error ?? "the layout failed"));
    };
    worker.onerror = (event) => {
      // A worker that cannot start (blocked, unsupported) sends everything waiting to the in-page layout.
      event.preventDefault();
      workerFailed = true;
      worker?.terminate();
      worker = undefined;
      const waiting = [...pending.values()];
      pending.clear();
      for (const entry of waiting) entry.reject(new Error("worker unavailable"));
    };
  } catch {
    workerFailed = true;
  }
  return worker;
}

async function layoutInPage(request: LayoutRequest): Promise<LayoutPositions> {
  const [{ default: ELK }, { placeGraph }] = await Promise.all([import("elkjs/lib/elk.bundled.js"), import("./layout-engine.js")]);
  return placeGraph(new ELK(), request);
}

/** Each node's position in a layered top-to-bottom layout of the graph. */
export async function layoutGraph(request: LayoutRequest): Promise<LayoutPositions> {
  const target = layoutWorker();
  if (!target) return layoutInPage(request);
  const seq = nextSeq++;
  try {
    return await new Promise<LayoutPositions>((resolve, reject) => {
      pending.set(seq, { resolve, reject });
      target.postMessage({ seq, request });
    });
  } catch (error) {
    if (workerFailed) return layoutInPage(request);
    throw error;
  }
}
