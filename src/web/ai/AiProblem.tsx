/**
 * A failed AI request, said so a scientist can act on it: no provider set up becomes a short explanation
 * with the way to the AI settings; any other failure shows the service's code, message and suggestion,
 * with "Try the <name> template" turned into a link to that template when the service has one by that name.
 */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { ApiError } from "../api/errors.js";
import { templatesQuery } from "../api/templates.js";
import "./ai.css";

/** The error code of a service without a usable AI provider. */
export const NOT_CONFIGURED = "AI_NOT_CONFIGURED";

/** Whether an error says no AI provider is usable. */
export function isNotConfigured(error: unknown): boolean {
  return error instanceof ApiError && error.body.code === NOT_CONFIGURED;
}

/** The failure of an AI request (or the help to set a provider up when there is none). */
export function AiProblem({ error, what = "draft pipelines" }: { error: Error; what?: string }) {
  if (isNotConfigured(error)) return <AiNotConfigured what={what} />;
  const body = error instanceof ApiError ? error.body : {};
  return (
    <div className="error-notice ai-problem" role="alert">
      <p>
        {body.code ? <strong>{body.code}: </strong> : null}
        {error.message}
      </p>
      {body.suggestion ? (
        <p className="ai-problem-suggestion">
          <SuggestionText text={body.suggestion} />
        </p>
      ) : null}
    </div>
  );
}

/** Why AI help is off, and where to turn it on. */
export function AiNotConfigured({ what = "draft pipelines" }: { what?: string }) {
  return (
    <div className="ai-help" role="note" aria-labelledby="ai-help-title">
      <h3 id="ai-help-title">AI help is not set up yet</h3>
      <p>
        strand can {what} with a language model, but this service has no AI provider to ask. Choose one (Anthropic, OpenAI, DeepSeek, or a local Ollama) and give its key on the{" "}
        <Link to="/settings/ai">AI settings page</Link>; it takes a minute.
      </p>
      <p className="muted">Until then everything else works as before: start from a template or write the pipeline yourself.</p>
    </div>
  );
}

/** A suggestion, with a named template as a link to it. */
function SuggestionText({ text }: { text: string }) {
  const named = /Try the ([\w.-]+) template/i.exec(text);
  const templates = useQuery({ ...templatesQuery(), enabled: named !== null });
  if (!named) return <>{text}</>;
  const wanted = named[1]!.toLowerCase();
  const template = templates.data?.find((entry) => [entry.name, entry.slug, entry.id].some((name) => name?.toLowerCase() === wanted));
  if (!template) return <>{text}</>;
  const before = text.slice(0, named.index);
  const after = text.slice(named.index + named[0].length);
  return (
    <>
      {before}
      <Link to={`/pipelines/new?template=${encodeURIComponent(template.id)}`}>{named[0]}</Link>
      {after}
    </>
  );
}
