/**
 * The administrators' pages' frame: in personal mode there are no accounts to manage, and a signed-in user
 * who is not an administrator is told so plainly (without asking the service, which would answer 403).
 */
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useCurrentUser, useServiceMode } from "./session.js";

export function AdminOnly({ title, children }: { title: string; children: ReactNode }) {
  const { mode } = useServiceMode();
  const signInNeeded = mode === "team" || mode === "hpc";
  const me = useCurrentUser(signInNeeded);
  if (!mode || (signInNeeded && !me.data)) return <p className="muted">Loading…</p>;
  if (!signInNeeded || me.data?.user.role !== "admin") {
    return (
      <section aria-labelledby="admin-only-title" className="account-page">
        <h1 id="admin-only-title">{title}</h1>
        <div className="notice-card" role="note">
          <strong>Administrators only.</strong>{" "}
          {!signInNeeded
            ? "This service runs in personal mode: it has no accounts and no audit log to manage."
            : `You are signed in as ${me.data?.user.username ?? "?"} with the role ${me.data?.user.role ?? "?"}; this page is for administrators. Ask one of them if you need a change.`}
          <div>
            <Link to="/pipelines">Back to the pipelines</Link>
          </div>
        </div>
      </section>
    );
  }
  return <>{children}</>;
}
