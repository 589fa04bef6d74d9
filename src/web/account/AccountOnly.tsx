/**
 * The frame of the account pages: personal mode has no sign-in, so no sessions, tokens or accounts to manage,
 * and the page says so instead of asking the service (which would answer 404); with `adminOnly`, a signed-in
 * user who is not an administrator is told so plainly (the service would answer 403).
 */
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useCurrentUser } from "../api/account.js";
import { useServiceMode } from "../api/health.js";

export function AccountOnly({ title, adminOnly = false, children }: { title: string; adminOnly?: boolean; children: ReactNode }) {
  const { mode } = useServiceMode();
  const signInNeeded = mode === "team" || mode === "hpc";
  const me = useCurrentUser(signInNeeded);
  if (!mode || (signInNeeded && !me.data)) return <p className="muted">Loading…</p>;
  let refusal: ReactNode = null;
  if (!signInNeeded) {
    refusal = (
      <>
        <strong>Nothing to manage in personal mode.</strong> This service is yours alone: it has no sign-in, so no sessions, access tokens, accounts or audit log. Start it with{" "}
        <code>SERVICE_MODE=team</code> to share it with accounts.
      </>
    );
  } else if (adminOnly && me.data?.user.role !== "admin") {
    refusal = (
      <>
        <strong>Administrators only.</strong> You are signed in as {me.data?.user.username} with the role {me.data?.user.role}; this page is for administrators. Ask one of them if you need a change.
      </>
    );
  }
  if (refusal === null) return <>{children}</>;
  return (
    <section aria-labelledby="account-only-title" className="account-page">
      <h1 id="account-only-title">{title}</h1>
      <div className="notice-card" role="note">
        <div>{refusal}</div>
        <div>
          <Link to="/pipelines">Back to the pipelines</Link>
        </div>
      </div>
    </section>
  );
}
