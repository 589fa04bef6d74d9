/**
 * A link to hand on: shown in a read-only field (selected on focus, so it can be copied by hand where the
 * Clipboard API is refused) with a Copy button that confirms visibly and to screen readers.
 */
import { useEffect, useId, useRef, useState } from "react";

export function CopyField({ label, value }: { label: string; value: string }) {
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
    <div className="pl-copy">
      <label htmlFor={id}>{label}</label>
      <div className="pl-copy-row">
        <input id={id} ref={field} className="mono" readOnly value={value} onFocus={(event) => event.target.select()} />
        <button type="button" onClick={() => void copy()} aria-label={`Copy ${label.toLowerCase()}`}>
          Copy
        </button>
        <span className={state === "failed" ? "pl-copy-state pl-field-error" : "pl-copy-state"} aria-live="polite">
          {state === "copied" ? "✓ Copied" : state === "failed" ? "The browser refused: press Ctrl+C to copy the selected link." : ""}
        </span>
      </div>
    </div>
  );
}
