/**
 * Accounts, for administrators: create one (username, password, role), change a role, reset a password, or
 * delete an account after a confirmation. The service keeps at least one administrator and says so when a
 * change would remove the last one; its message shows here.
 */
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useChangeRole, useCreateUser, useCurrentUser, useDeleteUser, useResetPassword, usersQuery, type Role, type User } from "../api/account.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { Listing } from "../components/Listing.js";
import { AccountOnly } from "./AccountOnly.js";
import { ConfirmButton } from "../components/ConfirmButton.js";
import { ModalDialog } from "../components/ModalDialog.js";
import { When } from "../components/When.js";
import "./account.css";

/** What each role may do, in words (keyed by the API's roles: a role it gains is a compile error here). */
const ROLE_WORDS: Record<Role, string> = {
  admin: "everything, accounts and the audit log",
  user: "own pipelines and runs",
  viewer: "reads what is shared",
};

/** The roles, most powerful first. */
const ROLES = (Object.keys(ROLE_WORDS) as Role[]).map((role) => ({ role, says: ROLE_WORDS[role] }));

export function UsersPage() {
  return (
    <AccountOnly title="Users" adminOnly>
      <UsersListing />
    </AccountOnly>
  );
}

function UsersListing() {
  const me = useCurrentUser(true);
  const users = useQuery(usersQuery());
  const changeRole = useChangeRole();
  const deleteUser = useDeleteUser();
  const [resetting, setResetting] = useState<User | null>(null);
  return (
    <section aria-labelledby="users-title" className="account-page">
      <div className="page-head">
        <div>
          <h1 id="users-title">Users</h1>
          <p className="muted page-lead">Everyone who can sign in to this service, and what they may do.</p>
        </div>
        {users.data ? <span className="count">{users.data.length} accounts</span> : null}
      </div>
      <CreateUserForm />
      {changeRole.error ? <ErrorNotice error={changeRole.error} /> : null}
      {changeRole.isSuccess ? (
        <p className="muted" role="status">
          {changeRole.data.username} is now {changeRole.data.role}.
        </p>
      ) : null}
      <Listing
        query={users}
        rows={users.data ?? []}
        rowKey={(user) => user.id}
        empty="No accounts yet: create the first one above."
        columns={[
          {
            header: "Username",
            cell: (user) => (
              <>
                <strong>{user.username}</strong> {user.id === me.data?.user.id ? <span className="badge badge-current">you</span> : null}
              </>
            ),
          },
          {
            header: "Role",
            cell: (user) => (
              <select
                aria-label={`Role of ${user.username}`}
                value={user.role}
                disabled={changeRole.isPending}
                onChange={(event) => {
                  changeRole.reset();
                  changeRole.mutate({ id: user.id, role: event.target.value as Role });
                }}
              >
                {ROLES.map(({ role }) => (
                  <option key={role} value={role}>
                    {role}
                  </option>
                ))}
              </select>
            ),
          },
          { header: "Sign-in", cell: (user) => (user.has_password ? "password" : <span className="muted">GitHub or ORCID only</span>) },
          { header: "Created", cell: (user) => <When iso={user.created_at} /> },
          {
            header: "Actions",
            hideHeader: true,
            className: "actions",
            cell: (user) => (
              <>
                <button type="button" aria-label={`Reset password of ${user.username}`} onClick={() => setResetting(user)}>
                  Reset password
                </button>
                <ConfirmButton label="Delete" accessibleName={`Delete ${user.username}`} title={`Delete ${user.username}?`} confirmLabel="Delete account" action={() => deleteUser.mutateAsync(user.id)}>
                  <p>
                    {user.username} can no longer sign in; their sessions and access tokens stop working at once. Their pipelines and runs stay. This cannot be undone.
                  </p>
                </ConfirmButton>
              </>
            ),
          },
        ]}
      />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
    </section>
  );
}

function CreateUserForm() {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState<Role>("user");
  const create = useCreateUser({
    onSuccess: () => {
      setUsername("");
      setPassword("");
      setRole("user");
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ username: username.trim(), password, role });
  };
  return (
    <form className="panel inline-form" onSubmit={submit} aria-labelledby="new-user-title">
      <h2 id="new-user-title" className="panel-title">
        New account
      </h2>
      <div className="form-row">
        <label>
          Username
          <input required autoComplete="off" value={username} onChange={(event) => setUsername(event.target.value)} />
        </label>
        <label>
          Password
          <input required type="password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} />
        </label>
        <label>
          Role
          <select value={role} onChange={(event) => setRole(event.target.value as Role)}>
            {ROLES.map((option) => (
              <option key={option.role} value={option.role}>
                {option.role} — {option.says}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create account"}
        </button>
      </div>
      {create.error ? <ErrorNotice error={create.error} /> : null}
      {create.isSuccess ? (
        <p className="muted" role="status">
          Account {create.data.username} created. Tell them their password through a safe channel; they can change it from their menu.
        </p>
      ) : null}
    </form>
  );
}

function ResetPasswordDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const [password, setPassword] = useState("");
  const reset = useResetPassword({ onSuccess: () => setPassword("") });
  const close = () => {
    reset.reset();
    setPassword("");
    onClose();
  };
  return (
    <ModalDialog open={user !== null} title={`Reset the password of ${user?.username ?? ""}`} onClose={close}>
      {reset.isSuccess ? (
        <>
          <p role="status">The password is reset; {user?.username}'s sessions and access tokens have ended.</p>
          <div className="modal-actions">
            <button type="button" className="primary" onClick={close} autoFocus>
              Done
            </button>
          </div>
        </>
      ) : (
        <form
          className="stacked-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (user) reset.mutate({ id: user.id, password });
          }}
        >
          <p>Their sessions and access tokens end, and a sign-in lock-out is lifted.</p>
          <label>
            New password
            <input type="password" autoComplete="new-password" required value={password} onChange={(event) => setPassword(event.target.value)} autoFocus />
          </label>
          {reset.error ? <ErrorNotice error={reset.error} /> : null}
          <div className="modal-actions">
            <button type="button" onClick={close}>
              Cancel
            </button>
            <button type="submit" className="primary" disabled={reset.isPending}>
              {reset.isPending ? "Resetting…" : "Reset password"}
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}
