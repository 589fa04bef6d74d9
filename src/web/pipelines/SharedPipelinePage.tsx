/**
 * The page a share link opens: the shared pipeline read-only (`GET /api/share/{token}`, public in every
 * mode), its TOML to read or download, and "Import a copy", which imports the link (so a revoked link
 * cannot be imported from a page left open) into a pipeline the caller owns and opens it in the editor.
 */
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "react-router";
import { ApiError } from "../api/errors.js";
import { sharedPipelineQuery } from "../api/pipeline-shares.js";
import { useImportPipeline } from "../api/pipelines.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { fullTime, relativeTime } from "../components/formatting.js";
import { signInPath } from "../account/return-path.js";
import { accessTo, useCurrentUser } from "./access.js";
import { downloadText } from "./download.js";
import { tomlFilename } from "./format.js";
import { importFormOfToken } from "./share-links.js";
import "./pipelines.css";

export function SharedPipelinePage() {
  const { token = "" } = useParams();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const access = accessTo(user, undefined);
  const landing = useQuery(sharedPipelineQuery(token));
  const importing = useImportPipeline({ onSuccess: (imported) => void navigate(`/pipelines/${imported.id}`) });
  const goneStatus = landing.error instanceof ApiError && (landing.error.status === 410 || landing.error.status === 404) ? landing.error.status : null;
  const gone = goneStatus !== null;
  const shared = landing.data;
  return (
    <section aria-labelledby="shared-title" className="pl-page wide-page">
      {landing.isPending ? (
        <>
          <h1 id="shared-title">Shared pipeline</h1>
          <p className="muted">Loading…</p>
        </>
      ) : gone ? (
        <div className="pl-narrow">
          <h1 id="shared-title">This share link no longer works</h1>
          <p>
            {goneStatus === 410 ? "Its owner revoked it, or it expired." : "No pipeline is shared under this link."} Ask the person who sent it for a new
            link.
          </p>
          <p>
            <Link to="/pipelines">Go to your pipelines</Link>
          </p>
        </div>
      ) : landing.error ? (
        <>
          <h1 id="shared-title">Shared pipeline</h1>
          <ErrorNotice error={landing.error} />
        </>
      ) : shared ? (
        <>
          <div className="page-head">
            <div>
              <p className="pl-eyebrow">Shared with you · read only</p>
              <h1 id="shared-title">{shared.pipeline.name}</h1>
              {shared.pipeline.description ? <p className="pl-lead">{shared.pipeline.description}</p> : null}
            </div>
            <div className="pl-head-actions">
              <button type="button" onClick={() => downloadText(tomlFilename(shared.pipeline.name), shared.toml_content)}>
                Download TOML
              </button>
              <button type="button" className="pl-primary" onClick={() => importing.mutate({ url: importFormOfToken(token, window.location.host) })} disabled={importing.isPending || !access.create} aria-busy={importing.isPending} title={access.reason ?? undefined}>
                {importing.isPending ? "Importing…" : "Import a copy"}
              </button>
            </div>
          </div>
          <dl className="pl-facts">
            <div>
              <dt>Rules</dt>
              <dd>{shared.pipeline.rules_count}</dd>
            </div>
            {shared.pipeline.version ? (
              <div>
                <dt>Version</dt>
                <dd>{shared.pipeline.version}</dd>
              </div>
            ) : null}
            <div>
              <dt>Updated</dt>
              <dd>
                <time dateTime={shared.pipeline.updated_at} title={fullTime(shared.pipeline.updated_at)}>
                  {relativeTime(shared.pipeline.updated_at)}
                </time>
              </dd>
            </div>
            <div>
              <dt>Link expires</dt>
              <dd>{shared.expires_at ? <time dateTime={shared.expires_at}>{relativeTime(shared.expires_at)}</time> : "never"}</dd>
            </div>
            {shared.pipeline.tags.length > 0 ? (
              <div>
                <dt>Tags</dt>
                <dd>{shared.pipeline.tags.join(", ")}</dd>
              </div>
            ) : null}
          </dl>
          <p className="muted">{access.create ? "Import a copy makes a private pipeline you own, to change and run; this shared one stays as it is." : access.reason}</p>
          {importing.error ? (
            <>
              <ErrorNotice error={importing.error} />
              {importing.error instanceof ApiError && importing.error.status === 401 ? (
                <p>
                  <Link to={signInPath(`/share/${token}`, "")}>Sign in</Link> to import a copy; you can still read and download it.
                </p>
              ) : null}
            </>
          ) : null}
          <pre className="pl-toml pl-toml-tall" tabIndex={0} aria-label={`TOML of ${shared.pipeline.name}`}>
            {shared.toml_content}
          </pre>
        </>
      ) : null}
    </section>
  );
}
