/**
 * A new pipeline, from one of the service's templates (chosen from cards, its TOML previewed) or from a
 * commented one-rule starter; the name the user gives becomes the pipeline's and its `[workflow]` name.
 * Saved with `POST /api/pipelines`, then the editor opens on it. `?from=scratch` opens on the starter,
 * `?template=<id>` on that template, `?from=describe` on "describe your analysis" (an AI draft, which opens in
 * the editor unsaved, and only when the user says so), `?from=data` on "start from my data" (a template filled
 * from an analysed folder, opened in the editor unsaved the same way).
 */
import { useQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { useCreatePipeline } from "../api/pipelines.js";
import { templatesQuery } from "../api/templates.js";
import { DescribePanel } from "../ai/DescribePanel.js";
import { DataStartPanel } from "../data/DataStartPanel.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { QueryState } from "../components/QueryState.js";
import { accessTo, useCurrentUser } from "./access.js";
import { nameProblem, renameWorkflow, scratchPipeline } from "./format.js";
import "./pipelines.css";

type Visibility = "private" | "workspace" | "link";

export function NewPipelinePage() {
  const [params, setParams] = useSearchParams();
  const from = params.get("from");
  const source = from === "scratch" || from === "describe" || from === "data" ? from : "template";
  const [templateId, setTemplateId] = useState<string | null>(params.get("template"));
  // The name the user typed; until then the name follows the chosen starting point.
  const [typedName, setTypedName] = useState<string | undefined>();
  const [tags, setTags] = useState("");
  const [visibility, setVisibility] = useState<Visibility>("private");
  const [tried, setTried] = useState(false);
  const navigate = useNavigate();
  const access = accessTo(useCurrentUser(), undefined);
  const nameId = useId();
  const nameErrorId = useId();
  const templates = useQuery(templatesQuery());
  const template = templates.data?.find((entry) => entry.id === templateId) ?? templates.data?.[0];

  const name = typedName ?? (source === "scratch" ? "my-pipeline" : (template?.name ?? ""));

  const problem = nameProblem(name);
  const text = source === "scratch" ? scratchPipeline(name.trim() || "my-pipeline") : template ? renameWorkflow(template.toml_content, name.trim() || template.name) : "";
  const create = useCreatePipeline({ onSuccess: (saved) => void navigate(`/pipelines/${saved.id}`) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (problem || !text || !access.create) return;
    create.mutate({
      name: name.trim(),
      toml_content: text,
      visibility,
      tags: tags
        .split(",")
        .map((tag) => tag.trim())
        .filter(Boolean),
    });
  };

  return (
    <section aria-labelledby="new-title" className="pl-page wide-page">
      <div className="page-head">
        <div>
          <Link to="/pipelines" className="pl-back">
            ← Pipelines
          </Link>
          <h1 id="new-title">New pipeline</h1>
        </div>
      </div>
      {!access.create ? <p className="error-notice">{access.reason}</p> : null}
      <div className="pl-segmented" role="radiogroup" aria-label="Start from">
        {(["template", "data", "scratch", "describe"] as const).map((choice) => (
          <label key={choice} className={source === choice ? "pl-segment pl-segment-on" : "pl-segment"}>
            <input type="radio" name="source" value={choice} checked={source === choice} onChange={() => setParams(choice === "template" ? {} : { from: choice }, { replace: true })} />
            {choice === "template" ? "From a template" : choice === "data" ? "From my data" : choice === "scratch" ? "From scratch" : "Describe it (AI)"}
          </label>
        ))}
      </div>
      {source === "describe" ? (
        <DescribePanel onUse={(toml) => void navigate("/editor", { state: { draft: toml } })} />
      ) : source === "data" ? (
        <DataStartPanel onUse={(toml) => void navigate("/editor", { state: { draft: toml, origin: "data" } })} />
      ) : (
        <form className="pl-new" onSubmit={submit} noValidate>
          <div className="pl-new-choose">
            {source === "template" ? (
              <fieldset className="pl-templates">
                <legend>Template</legend>
                <QueryState query={templates} empty={templates.data && templates.data.length === 0 ? "The service has no templates. Start from scratch instead." : null} />
                {templates.data?.map((entry) => (
                  <label key={entry.id} className={entry.id === template?.id ? "pl-template pl-template-on" : "pl-template"}>
                    <input type="radio" name="template" value={entry.id} checked={entry.id === template?.id} onChange={() => setTemplateId(entry.id)} />
                    <span className="pl-template-title">
                      {entry.title}
                      {entry.runnable ? <span className="pl-chip pl-chip-ok">runs anywhere</span> : null}
                      {!entry.builtin ? <span className="pl-chip pl-chip-quiet">added by a user</span> : null}
                    </span>
                    <span className="pl-template-description">{entry.description}</span>
                    {entry.tags.length > 0 ? <span className="pl-template-tags muted">{entry.tags.filter((tag) => tag !== "runnable").join(" · ")}</span> : null}
                  </label>
                ))}
              </fieldset>
            ) : (
              <div className="pl-scratch-note">
                <h2>A blank pipeline</h2>
                <p>One rule that writes a file, with comments that explain the format. The editor checks it as you type and draws its graph.</p>
              </div>
            )}
            <div className="pl-fields">
              <div className="pl-field">
                <label htmlFor={nameId}>Name</label>
                <input
                  id={nameId}
                  value={name}
                  required
                  maxLength={220}
                  aria-invalid={tried && problem !== null}
                  aria-describedby={tried && problem ? nameErrorId : undefined}
                  onChange={(event) => {
                    setTypedName(event.target.value);
                  }}
                />
                {tried && problem ? (
                  <span id={nameErrorId} className="pl-field-error">
                    {problem}
                  </span>
                ) : null}
              </div>
              <div className="pl-field">
                <label htmlFor={`${nameId}-tags`}>
                  Tags <span className="muted">(optional, comma separated)</span>
                </label>
                <input id={`${nameId}-tags`} value={tags} placeholder="rna-seq, qc" onChange={(event) => setTags(event.target.value)} />
              </div>
              <div className="pl-field">
                <label htmlFor={`${nameId}-visibility`}>Visibility</label>
                <select id={`${nameId}-visibility`} value={visibility} onChange={(event) => setVisibility(event.target.value as Visibility)}>
                  <option value="private">Private: you and administrators</option>
                  <option value="workspace">Workspace: every signed-in user may read and fork</option>
                  <option value="link">Link: readable through share links</option>
                </select>
              </div>
              {create.error ? <ErrorNotice error={create.error} /> : null}
              <div className="pl-form-actions">
                <button type="submit" className="pl-primary" disabled={create.isPending || !access.create || !text} aria-busy={create.isPending}>
                  {create.isPending ? "Creating…" : "Create and open in the editor"}
                </button>
                <Link to="/pipelines">Cancel</Link>
              </div>
            </div>
          </div>
          <div className="pl-preview">
            <h2 className="pl-preview-title">
              Preview <span className="muted">{source === "template" && template ? template.title : "starter"}</span>
            </h2>
            <pre className="pl-toml" tabIndex={0} aria-label="TOML preview">
              {text}
            </pre>
          </div>
        </form>
      )}
    </section>
  );
}
