/**
 * A modal `<dialog>` shown while `open`: the browser keeps focus inside and moves it to the control marked
 * `data-autofocus` (else the first one), Escape closes it (through `onClose`), and focus returns to what had
 * it before (or to the main region when that control is gone or hidden).
 */
import { useEffect, useId, useRef, type ReactNode } from "react";
import "./components.css";

/** The app's one modal dialog; its content is rendered only while it is open. */
export function ModalDialog({ open, title, onClose, children, className }: { open: boolean; title: string; onClose: () => void; children: ReactNode; className?: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element || !open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    element.showModal();
    // Destructive questions start on their safe answer, whatever comes first in the dialog.
    element.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    return () => {
      element.close();
      // The opener may be gone with its row (a revoked link) or hidden (a closed menu): then the main region takes the focus.
      if (opener?.isConnected && opener.offsetParent !== null) opener.focus();
      else if (document.activeElement === null || document.activeElement === document.body) document.getElementById("main")?.focus();
    };
  }, [open]);
  const titleId = useId();
  return (
    <dialog
      ref={dialog}
      className={className ? `modal ${className}` : "modal"}
      aria-labelledby={open ? titleId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open ? (
        <>
          <h2 id={titleId}>{title}</h2>
          {children}
        </>
      ) : null}
    </dialog>
  );
}
