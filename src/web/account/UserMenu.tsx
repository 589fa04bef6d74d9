/**
 * The signed-in user's menu in the header (team and hpc modes; in personal mode only a link to the AI
 * settings; nothing while signed out): who you are and your role, your sessions and access tokens, the AI
 * settings, the administrators' pages, changing your password and signing out. A disclosure button: Escape
 * or a click elsewhere closes it and focus returns to the button; the arrow keys move between its entries.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { useCurrentUser, useSignOut } from "../api/account.js";
import { useServiceMode } from "../api/health.js";
import { ChangePasswordDialog } from "./ChangePasswordDialog.js";
import "./account.css";

export function UserMenu() {
  const { mode } = useServiceMode();
  const location = useLocation();
  const onSignInPage = location.pathname === "/sign-in";
  const me = useCurrentUser((mode === "team" || mode === "hpc") && !onSignInPage);
  if (mode === "personal")
    return (
      <Link className="settings-link" to="/settings/ai">
        AI settings
      </Link>
    );
  if (mode === undefined || onSignInPage || !me.data) return null;
  return <SignedInMenu username={me.data.user.username} role={me.data.user.role} />;
}

function SignedInMenu({ username, role }: { username: string; role: "admin" | "user" | "viewer" }) {
  const location = useLocation();
  // The page the menu was opened on: a page change (following one of the links) closes it.
  const [openOn, setOpenOn] = useState<string | undefined>();
  const open = openOn === location.pathname;
  const [changingPassword, setChangingPassword] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const navigate = useNavigate();
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!panel.current?.contains(event.target as Node) && !button.current?.contains(event.target as Node)) setOpenOn(undefined);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  // Whatever the answer (a session already over says 401), this browser is signed out now.
  const signOut = useSignOut({ onSettled: () => void navigate("/sign-in", { replace: true }) });

  const entries = () => [...(panel.current?.querySelectorAll<HTMLElement>("a, button") ?? [])];
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape" && open) {
      event.stopPropagation();
      setOpenOn(undefined);
      button.current?.focus();
      return;
    }
    if (!open || (event.key !== "ArrowDown" && event.key !== "ArrowUp" && event.key !== "Home" && event.key !== "End")) return;
    event.preventDefault();
    const items = entries();
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next = event.key === "Home" ? 0 : event.key === "End" ? items.length - 1 : event.key === "ArrowDown" ? (at + 1) % items.length : (at - 1 + items.length) % items.length;
    items[next]?.focus();
  };

  return (
    <div className="user-menu" onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        className="user-menu-button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpenOn(open ? undefined : location.pathname)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" && !open) {
            event.preventDefault();
            setOpenOn(location.pathname);
            requestAnimationFrame(() => entries()[0]?.focus());
          }
        }}
      >
        <span className="avatar" aria-hidden="true">
          {username.slice(0, 1).toUpperCase()}
        </span>
        <span className="user-menu-name">{username}</span>
        <span className="visually-hidden"> ({role}), account menu</span>
        <span className="chevron" aria-hidden="true">
          ▾
        </span>
      </button>
      <div ref={panel} id={panelId} className="user-menu-panel" hidden={!open}>
        <div className="user-menu-who">
          <strong>{username}</strong>
          <span className={`badge badge-role-${role}`}>{role}</span>
        </div>
        <nav aria-label="Account">
          <Link to="/account/sessions">Sessions</Link>
          <Link to="/account/tokens">Access tokens</Link>
          <Link to="/settings/ai">AI settings</Link>
          {role === "admin" ? (
            <>
              <div className="user-menu-group">Administration</div>
              <Link to="/admin/users">Users</Link>
              <Link to="/admin/audit">Audit log</Link>
            </>
          ) : null}
        </nav>
        <div className="user-menu-actions">
          <button
            type="button"
            onClick={() => {
              setOpenOn(undefined);
              setChangingPassword(true);
            }}
          >
            Change password
          </button>
          <button type="button" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
            {signOut.isPending ? "Signing out…" : "Sign out"}
          </button>
        </div>
      </div>
      <ChangePasswordDialog
        open={changingPassword}
        onClose={() => {
          setChangingPassword(false);
          // After the dialog has closed and let go of the focus.
          requestAnimationFrame(() => button.current?.focus());
        }}
      />
    </div>
  );
}
