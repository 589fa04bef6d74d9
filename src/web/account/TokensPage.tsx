/**
 * Personal access tokens for scripts: the list (never the secrets), a new token shown exactly once with a
 * copy button, and revoking one after a confirmation.
 */
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { tokensQuery, useCreateToken, useRevokeToken, type CreatedAccessToken } from "../api/account.js";
import { ConfirmButton } from "../components/ConfirmButton.js";
import { CopyField } from "../components/CopyField.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { Listing } from "../components/Listing.js";
import { AccountOnly } from "./AccountOnly.js";
import { When } from "../components/When.js";
import "./account.css";

export function TokensPage() {
  return (
    <AccountOnly title="Access tokens">
      <TokensListing />
    </AccountOnly>
  );
}

function TokensListing() {
  const tokens = useQuery(tokensQuery());
  const revoke = useRevokeToken();
  const [created, setCreated] = useState<CreatedAccessToken | null>(null);
  return (
    <section aria-labelledby="tokens-title" className="account-page">
      <div className="page-head">
        <div>
          <h1 id="tokens-title">Access tokens</h1>
          <p className="muted page-lead">
            Tokens let scripts and the <code>strand</code> command line act as you: send one as <code>Authorization: Bearer …</code>. Give each script its own token, so you can revoke one without
            touching the others.
          </p>
        </div>
      </div>
      {created ? <NewTokenNotice token={created} onDone={() => setCreated(null)} /> : <CreateTokenForm onCreated={setCreated} />}
      <h2 className="section-title">
        Your tokens {tokens.data ? <span className="count">{tokens.data.length}</span> : null}
      </h2>
      <Listing
        query={tokens}
        rows={tokens.data ?? []}
        rowKey={(token) => token.id}
        empty="No access tokens yet. Create one above for each script that talks to strand."
        columns={[
          {
            header: "Name",
            cell: (token) => (
              <>
                <strong>{token.name}</strong> {token.expires_at !== null && new Date(token.expires_at).getTime() < tokens.dataUpdatedAt ? <span className="badge badge-failed">expired</span> : null}
              </>
            ),
          },
          { header: "Created", cell: (token) => <When iso={token.created_at} /> },
          { header: "Expires", cell: (token) => <When iso={token.expires_at} empty="never" /> },
          { header: "Last used", cell: (token) => <When iso={token.last_used_at} empty="not yet" /> },
          {
            header: "Actions",
            hideHeader: true,
            className: "actions",
            cell: (token) => (
              <ConfirmButton label="Revoke" accessibleName={`Revoke token ${token.name}`} title={`Revoke ${token.name}?`} confirmLabel="Revoke token" action={() => revoke.mutateAsync(token.id)}>
                <p>Scripts using this token stop working at once. This cannot be undone: you would create a new token and update them.</p>
              </ConfirmButton>
            ),
          },
        ]}
      />
    </section>
  );
}

function CreateTokenForm({ onCreated }: { onCreated: (token: CreatedAccessToken) => void }) {
  const [name, setName] = useState("");
  const [days, setDays] = useState("90");
  const create = useCreateToken({
    onSuccess: (token) => {
      setName("");
      onCreated(token);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name: name.trim(), ...(days === "" ? {} : { expires_in_days: Number(days) }) });
  };
  return (
    <form className="panel inline-form" onSubmit={submit} aria-labelledby="new-token-title">
      <h2 id="new-token-title" className="panel-title">
        New token
      </h2>
      <div className="form-row">
        <label>
          Name
          <input required maxLength={100} placeholder="e.g. nightly-ci" value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        <label>
          Expires after (days)
          <input type="number" min={1} max={3650} placeholder="never" value={days} onChange={(event) => setDays(event.target.value)} aria-describedby="token-days-hint" />
        </label>
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create token"}
        </button>
      </div>
      <p id="token-days-hint" className="muted">
        Leave the days empty for a token that does not expire.
      </p>
      {create.error ? <ErrorNotice error={create.error} /> : null}
    </form>
  );
}

function NewTokenNotice({ token, onDone }: { token: CreatedAccessToken; onDone: () => void }) {
  return (
    <div className="panel new-secret" role="region" aria-labelledby="new-secret-title">
      <h2 id="new-secret-title" className="panel-title">
        Token {token.name} created
      </h2>
      <p className="warning-line">
        <strong>Copy it now: it is shown only this once.</strong> strand keeps only a hash of it, so it cannot show it again.
      </p>
      <CopyField
        label="The new token"
        hideLabel
        value={token.token}
        copyName="Copy"
        copiedText="Copied to the clipboard."
        failedText="The browser did not allow copying: select the token and copy it yourself."
      />
      <button type="button" className="primary" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}
