/**
 * The pages behind sign-in: in team and hpc modes a caller without a session goes to the sign-in page (with
 * the page asked for as `return_to`), and so does one whose session ends later, when any query or mutation
 * answers 401 AUTH_REQUIRED or TOKEN_EXPIRED. Personal mode has no sign-in: the pages show as they are.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, type ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { markSignedOut, useCurrentUser } from "../api/account.js";
import { isSessionEnded } from "../api/errors.js";
import { useServiceMode } from "../api/health.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { signInPath } from "./return-path.js";

export function AuthGate({ children }: { children: ReactNode }) {
  const { mode, health } = useServiceMode();
  const signInNeeded = mode === "team" || mode === "hpc";
  const me = useCurrentUser(signInNeeded);
  const location = useLocation();
  useSignInWhenSessionEnds(signInNeeded);

  if (health.isError && !mode) return <ErrorNotice error={health.error} />;
  if (!mode) return <p className="muted">Connecting to the service…</p>;
  if (!signInNeeded) return <>{children}</>;
  if (me.isError) return <ErrorNotice error={me.error} />;
  if (me.isPending) return <p className="muted">Checking your session…</p>;
  if (me.data === null) return <Navigate to={signInPath(location.pathname, location.search)} replace />;
  return <>{children}</>;
}

/** Watches every query and mutation: a 401 saying the session is missing or over marks the caller signed out. */
function useSignInWhenSessionEnds(active: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!active) return;
    const failed = (error: unknown) => {
      if (isSessionEnded(error)) markSignedOut(client);
    };
    const stopQueries = client.getQueryCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "error") failed(event.action.error);
    });
    const stopMutations = client.getMutationCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "error") failed(event.action.error);
    });
    return () => {
      stopQueries();
      stopMutations();
    };
  }, [client, active]);
}
