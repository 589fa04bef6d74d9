/** A failed request as the service explained it: its message, and what to do when it said. */
import { ApiError } from "../api/errors.js";

export function ErrorNotice({ error }: { error: Error }) {
  const suggestion = error instanceof ApiError ? error.body.suggestion : undefined;
  return (
    <div className="error-notice" role="alert">
      <strong>{error instanceof ApiError && error.body.code ? `${error.body.code}: ` : ""}</strong>
      {error.message}
      {suggestion ? <div className="muted">{suggestion}</div> : null}
    </div>
  );
}
