/**
 * A modal confirmation for a destructive or irreversible write: a native `<dialog>` (focus trapped, Escape
 * cancels) that starts on its safe button, shows the write's progress and the service's error, and hands
 * focus back to the control that opened it (or to the main region when that control is gone).
 */
import { useEffect, useId, useRef, type ReactNode } from "react";
import { ErrorNotice } from "../components/ErrorNotice.js";

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  busyLabel,
  busy,
  error,
  danger = false,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  error: Error | null;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement;
      element.showModal();
      cancel.current?.focus();
    } else if (!open && element.open) {
      element.close();
      // The opener may have gone with its row (a revoked link): the focus then goes to the main region, not the body.
      const target = opener.current instanceof HTMLElement && opener.current.isConnected ? opener.current : document.querySelector<HTMLElement>("main");
      target?.focus();
    }
  }, [open]);
  return (
    <dialog
      ref={dialog}
      className="pl-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <div className="pl-dialog-body">{children}</div>
      {error ? <ErrorNotice error={error} /> : null}
      <div className="pl-dialog-actions">
        <button type="button" ref={cancel} onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="button" className={danger ? "pl-danger" : "pl-primary"} onClick={onConfirm} disabled={busy} aria-busy={busy}>
          {busy ? busyLabel : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
