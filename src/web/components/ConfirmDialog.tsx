/**
 * A modal question before a destructive or irreversible step: it starts on its safe answer, Escape gives that
 * answer, and it shows the step's progress and the service's error while the dialog stays open.
 */
import type { ReactNode } from "react";
import { ErrorNotice } from "./ErrorNotice.js";
import { ModalDialog } from "./ModalDialog.js";

/** A yes/no dialog whose "no" (`cancelLabel`, "Cancel" unless told) has the focus and answers Escape. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = "Cancel",
  busyLabel = "Working…",
  busy = false,
  error = null,
  danger = false,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  /** What will happen, in the dialog. */
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** What the confirm button says while `busy`. */
  busyLabel?: string;
  busy?: boolean;
  error?: Error | null;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ModalDialog open={open} title={title} onClose={() => busy || onCancel()}>
      <div className="modal-body">{children}</div>
      {error ? <ErrorNotice error={error} /> : null}
      <div className="modal-actions">
        <button type="button" onClick={onCancel} disabled={busy} data-autofocus>
          {cancelLabel}
        </button>
        <button type="button" className={danger ? "modal-danger" : "modal-primary"} onClick={onConfirm} disabled={busy} aria-busy={busy}>
          {busy ? busyLabel : confirmLabel}
        </button>
      </div>
    </ModalDialog>
  );
}
