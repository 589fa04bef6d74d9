/** Your sessions (signed-in browsers and scripts): when each began, was last used and ends; end the others. */
import { useQuery } from "@tanstack/react-query";
import { sessionsQuery, useEndSession } from "../api/account.js";
import { Listing } from "../components/Listing.js";
import { AccountOnly } from "./AccountOnly.js";
import { ConfirmButton } from "../components/ConfirmButton.js";
import { When } from "../components/When.js";
import { browserOf } from "./user-agent.js";
import "./account.css";

export function SessionsPage() {
  return (
    <AccountOnly title="Sessions">
      <SessionsListing />
    </AccountOnly>
  );
}

function SessionsListing() {
  const sessions = useQuery(sessionsQuery());
  const endSession = useEndSession();
  const others = (sessions.data ?? []).filter((session) => !session.current).length;
  return (
    <section aria-labelledby="sessions-title" className="account-page">
      <div className="page-head">
        <div>
          <h1 id="sessions-title">Sessions</h1>
          <p className="muted page-lead">Where your account is signed in. End a session you do not recognise; changing your password ends all the others.</p>
        </div>
        {sessions.data ? <span className="count">{others === 0 ? "only this one" : `${others} other${others === 1 ? "" : "s"}`}</span> : null}
      </div>
      <Listing
        query={sessions}
        rows={sessions.data ?? []}
        rowKey={(session) => session.id}
        rowClassName={(session) => (session.current ? "current-row" : undefined)}
        empty="No sessions."
        columns={[
          {
            header: "Device",
            cell: (session) => (
              <>
                <div>{browserOf(session.user_agent) ?? <span className="muted">unknown browser</span>}</div>
                <div className="muted mono">{session.ip ?? "address not recorded"}</div>
              </>
            ),
          },
          { header: "Signed in", cell: (session) => <When iso={session.created_at} /> },
          { header: "Last seen", cell: (session) => <When iso={session.last_seen_at} /> },
          { header: "Expires", cell: (session) => <When iso={session.expires_at} /> },
          {
            header: "Actions",
            hideHeader: true,
            className: "actions",
            cell: (session) =>
              session.current ? (
                <span className="badge badge-current">This session</span>
              ) : (
                <ConfirmButton
                  label="End session"
                  accessibleName={`End session from ${browserOf(session.user_agent) ?? "an unknown browser"} at ${session.ip ?? "an unknown address"}`}
                  title="End this session?"
                  confirmLabel="End session"
                  action={() => endSession.mutateAsync(session.id)}
                >
                  <p>
                    The browser or script signed in from {session.ip ?? "an unknown address"} ({browserOf(session.user_agent) ?? "unknown browser"}) will be signed out at its next request.
                  </p>
                </ConfirmButton>
              ),
          },
        ]}
      />
    </section>
  );
}
