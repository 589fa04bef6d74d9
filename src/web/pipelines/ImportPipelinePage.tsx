/**
 * Import a pipeline from a link (`POST /api/pipelines/import`): a strand or oxo-flow share link, or a TOML
 * file's address. A share page of this app pasted as it is (https://…/share/<token>) is turned into its
 * import form, since that is what people copy from the address bar. The service's error and suggestion
 * show under the field; a success opens the editor on the copy.
 */
import { useId, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { useImportPipeline } from "../api/pipelines.js";
import { baseUrl } from "../api/service-address.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { accessTo, useCurrentUser } from "./access.js";
import { importFormOfAppShareLink } from "./share-links.js";
import "./pipelines.css";

export function ImportPipelinePage() {
  const [url, setUrl] = useState("");
  const [name, setName] = useState("");
  const [empty, setEmpty] = useState(false);
  const navigate = useNavigate();
  const access = accessTo(useCurrentUser(), undefined);
  const urlId = useId();
  const converted = importFormOfAppShareLink(url, baseUrl);
  // A plain https address of a file: the service wants it as toml+https://, so offer that in one click.
  const fileForm = !converted && /^https:\/\/\S+$/i.test(url.trim()) && !/\/share\/[A-Za-z0-9_-]+$/.test(url.trim()) ? `toml+${url.trim()}` : undefined;
  const importing = useImportPipeline({ onSuccess: (imported) => void navigate(`/pipelines/${imported.id}`) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setEmpty(url.trim() === "");
    if (url.trim() !== "") importing.mutate({ url: converted ?? url.trim(), ...(name.trim() ? { name: name.trim() } : {}) });
  };
  return (
    <section aria-labelledby="import-title" className="pl-page pl-narrow">
      <Link to="/pipelines" className="pl-back">
        ← Pipelines
      </Link>
      <h1 id="import-title">Import a pipeline</h1>
      <p className="muted">The copy is a private pipeline you own; the original is not changed.</p>
      {!access.create ? <p className="error-notice">{access.reason}</p> : null}
      <form className="pl-panel" onSubmit={submit} noValidate>
        <div className="pl-field">
          <label htmlFor={urlId}>Link</label>
          <input
            id={urlId}
            className="mono"
            value={url}
            placeholder="strand+https://strand.example.org/share/…"
            aria-describedby={`${urlId}-forms`}
            aria-invalid={empty}
            onChange={(event) => {
              setUrl(event.target.value);
              setEmpty(false);
              importing.reset();
            }}
          />
          {empty ? <span className="pl-field-error">Paste a link to import.</span> : null}
          {converted ? <span className="muted">This is a share page of this service; it will be imported as {converted}.</span> : null}
          {fileForm ? (
            <span className="muted">
              A plain address: if it serves a pipeline file, import it as <code>{fileForm}</code>.{" "}
              <button
                type="button"
                className="pl-link-button"
                onClick={() => {
                  setUrl(fileForm);
                  importing.reset();
                }}
              >
                Use that
              </button>
            </span>
          ) : null}
          <ul id={`${urlId}-forms`} className="muted pl-forms">
            <li>
              <code>strand+https://&lt;host&gt;/share/&lt;token&gt;</code>: a share link from a strand service (this one or another)
            </li>
            <li>
              <code>oxo+https://&lt;host&gt;/share/&lt;token&gt;</code>: a share link from an oxo-flow server
            </li>
            <li>
              <code>toml+https://&lt;address&gt;</code>: a pipeline file served over HTTPS
            </li>
          </ul>
        </div>
        <div className="pl-field">
          <label htmlFor={`${urlId}-name`}>
            Name <span className="muted">(optional: the shared pipeline's name otherwise)</span>
          </label>
          <input id={`${urlId}-name`} value={name} maxLength={200} onChange={(event) => setName(event.target.value)} />
        </div>
        {importing.error ? <ErrorNotice error={importing.error} /> : null}
        <div className="pl-form-actions">
          <button type="submit" className="pl-primary" disabled={importing.isPending || !access.create} aria-busy={importing.isPending}>
            {importing.isPending ? "Importing…" : "Import"}
          </button>
          <Link to="/pipelines">Cancel</Link>
        </div>
      </form>
    </section>
  );
}
