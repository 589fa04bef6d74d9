/**
 * A destructive action behind a confirmation: the button opens a dialog that says what will happen; the
 * action runs only on "confirm", and a refusal by the service shows in the dialog with its message.
 */
import { useMutation } from "@tanstack/react-query";
import { useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { ConfirmDialog } from "./ConfirmDialog.js";

/** A quiet red button that runs `action` once its dialog is confirmed (for a row's Revoke, Delete, End). */
export function ConfirmButton({
  label,
  accessibleName,
  title,
  confirmLabel,
  children,
  action,
  onDone,
}: {
  /** What the button says, e.g. "Revoke". */
  label: string;
  /** The button's accessible name when the label alone is ambiguous in a table, e.g. "Revoke token nightly-ci". */
  accessibleName?: string;
  title: string;
  confirmLabel: string;
  /** What will happen, in the dialog. */
  children: ReactNode;
  action: () => Promise<unknown>;
  onDone?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // When the action removes the button's row, the focus would fall to the page's body: the main region takes it.
  // (A layout effect's cleanup runs before the button leaves the document, while it still has the focus.)
  useLayoutEffect(() => {
    const element = button.current;
    return () => {
      if (element !== null && document.activeElement === element) document.getElementById("main")?.focus();
    };
  }, []);
  const run = useMutation({
    mutationFn: action,
    onSuccess: () => {
      setOpen(false);
      onDone?.();
    },
  });
  const close = () => {
    setOpen(false);
    run.reset();
  };
  return (
    <>
      <button ref={button} type="button" className="danger-quiet" aria-label={accessibleName} onClick={() => setOpen(true)}>
        {label}
      </button>
      <ConfirmDialog open={open} title={title} confirmLabel={confirmLabel} busy={run.isPending} error={run.error} danger onConfirm={() => run.mutate()} onCancel={close}>
        {children}
      </ConfirmDialog>
    </>
  );
}
