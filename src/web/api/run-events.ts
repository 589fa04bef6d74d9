/**
 * Live updates of one run: one EventSource on the service's event stream while the run is not over. Events
 * of this run mark its views stale, and the marks are coalesced (a 100,000-job run sends thousands of
 * events, and the service allows each client about 100 requests a minute), so the views refetch at most
 * every three seconds; a state change of the run refreshes everything at once. A `lagged` event or a
 * dropped connection means events were missed: everything is refetched. The caller also polls slowly, in
 * case the stream is blocked (a proxy that buffers it).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { invalidateRun, invalidateRunProgress, runEventsUrl } from "./runs.js";

/** The stream's state, for the page's indicator. */
export type LiveState = "connecting" | "live" | "reconnecting" | "off";

/** Job events come in bursts: their refetches wait this long after the previous one. */
const JOB_REFRESH_MS = 3_000;

/** Follows `runId`'s events while `active`; returns the stream's state. */
export function useRunEvents(runId: string, active: boolean): LiveState {
  const queries = useQueryClient();
  // What the current connection said, with the run it is for: a new connection starts "connecting".
  const [heard, setHeard] = useState<{ runId: string; state: LiveState } | undefined>();

  useEffect(() => {
    if (!active) return;
    const setState = (state: LiveState) => setHeard({ runId, state });
    let lastRefresh = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let dropped = false;
    const refreshAll = () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      lastRefresh = Date.now();
      void invalidateRun(queries, runId);
    };
    // Job progress: the status (the header counts from it too) and the jobs on screen. The run row changes
    // only with the run's own events; the timeline keeps its own slower pace. About 40 requests a minute.
    const refreshProgress = () => {
      timer = undefined;
      lastRefresh = Date.now();
      void invalidateRunProgress(queries, runId);
    };
    const scheduleProgress = () => {
      if (timer) return;
      timer = setTimeout(refreshProgress, Math.max(0, lastRefresh + JOB_REFRESH_MS - Date.now()));
    };

    const source = new EventSource(runEventsUrl(runId), { withCredentials: true });
    source.onopen = () => {
      setState("live");
      // Reconnected after a drop: whatever happened meanwhile is fetched again.
      if (dropped) refreshAll();
      dropped = false;
    };
    source.onerror = () => {
      dropped = true;
      setState("reconnecting");
    };
    source.onmessage = (message: MessageEvent<string>) => {
      let event: { type?: string; data?: { run_id?: string } };
      try {
        event = JSON.parse(message.data) as typeof event;
      } catch {
        return;
      }
      if (event.type === "lagged") return refreshAll();
      if (event.data?.run_id !== runId) return;
      if (event.type?.startsWith("run_")) refreshAll();
      else scheduleProgress();
    };
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
      setHeard(undefined);
    };
  }, [runId, active, queries]);

  if (!active) return "off";
  return heard?.runId === runId ? heard.state : "connecting";
}
