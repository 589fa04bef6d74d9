/** Changing your own password: the current one and the new one (twice); your other sessions end. */
import { useState, type FormEvent } from "react";
import { useChangePassword } from "../api/account.js";
import { ApiError } from "../api/errors.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { ModalDialog } from "../components/ModalDialog.js";

export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [repeated, setRepeated] = useState("");
  const change = useChangePassword({
    onSuccess: () => {
      setCurrent("");
      setNext("");
      setRepeated("");
    },
  });
  const close = () => {
    change.reset();
    setCurrent("");
    setNext("");
    setRepeated("");
    onClose();
  };
  const mismatch = repeated !== "" && repeated !== next;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!mismatch) change.mutate({ current_password: current, new_password: next });
  };
  return (
    <ModalDialog open={open} title="Change password" onClose={close}>
      {change.isSuccess ? (
        <>
          <p role="status">
            Your password is changed.{" "}
            {change.data.sessions_ended > 0 ? `${change.data.sessions_ended} other session${change.data.sessions_ended === 1 ? "" : "s"} ended.` : "You had no other sessions."}
          </p>
          <div className="modal-actions">
            <button type="button" className="primary" onClick={close} autoFocus>
              Done
            </button>
          </div>
        </>
      ) : (
        <form className="stacked-form" onSubmit={submit}>
          <label>
            Current password
            <input type="password" autoComplete="current-password" required value={current} onChange={(event) => setCurrent(event.target.value)} autoFocus />
          </label>
          <label>
            New password
            <input type="password" autoComplete="new-password" required value={next} onChange={(event) => setNext(event.target.value)} />
          </label>
          <label>
            Repeat the new password
            <input type="password" autoComplete="new-password" required value={repeated} aria-invalid={mismatch} aria-describedby={mismatch ? "password-mismatch" : undefined} onChange={(event) => setRepeated(event.target.value)} />
          </label>
          {mismatch ? (
            <p id="password-mismatch" className="field-error">
              The two new passwords differ.
            </p>
          ) : null}
          <p className="muted">Your other sessions end when the password changes; this one stays signed in.</p>
          {change.error ? (
            change.error instanceof ApiError && change.error.body.code === "AUTH_FAILED" ? (
              <div className="error-notice" role="alert">
                The current password is wrong.
              </div>
            ) : (
              <ErrorNotice error={change.error} />
            )
          ) : null}
          <div className="modal-actions">
            <button type="button" onClick={close}>
              Cancel
            </button>
            <button type="submit" className="primary" disabled={change.isPending || mismatch}>
              {change.isPending ? "Changing…" : "Change password"}
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}
