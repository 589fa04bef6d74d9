/**
 * A value to hand on (a link, a new token): shown in a read-only field (selected on focus, so it can be copied
 * by hand where the Clipboard API is refused) with a Copy button that confirms visibly and to screen readers.
 */
import { useEffect, useId, useRef, useState } from "react";
import "./components.css";

/** A read-only field with a Copy button; `hideLabel` names the field without showing its label. */
export function CopyField({
  label,
  value,
  hideLabel = false,
  copyName = `Copy ${label.toLowerCase()}`,
  copiedText = "✓ Copied",
  failedText = "The browser refused: press Ctrl+C to copy the selected link.",
}: {
  label: string;
  value: string;
  hideLabel?: boolean;
  /** The Copy button's accessible name. */
  copyName?: string;
  copiedText?: string;
  /** Said when the browser refuses the clipboard (the field's text is then selected). */
  failedText?: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const field = useRef<HTMLInputElement>(null);
  const id = useId();
  useEffect(() => {
    if (state !== "copied") return;
    const timer = setTimeout(() => setState("idle"), 4_000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      // No clipboard permission (or no secure context): select the text so Ctrl+C copies it.
      setState("failed");
      field.current?.focus();
      field.current?.select();
    }
  };
  return (
    <div className="copy-field">
      {hideLabel ? null : <label htmlFor={id}>{label}</label>}
      <div className="copy-field-row">
        <input id={id} ref={field} className="mono" readOnly value={value} aria-label={hideLabel ? label : undefined} onFocus={(event) => event.target.select()} />
        <button type="button" onClick={() => void copy()} aria-label={copyName === "Copy" ? undefined : copyName}>
          Copy
        </button>
        <span className={state === "failed" ? "copy-field-state copy-field-failed" : "copy-field-state"} role="status">
          {state === "copied" ? copiedText : state === "failed" ? failedText : ""}
        </span>
      </div>
    </div>
  );
}
