/**
 * Saved pipelines: the list the caller may see, filtered as you type (name, description, tags, and the
 * service's ranked content search for words found only in a pipeline's text), narrowed by visibility, tag
 * and owner, sorted; each name opens the editor. A first-time user gets four ways to start instead.
 */
import { useQuery } from "@tanstack/react-query";
import { useDeferredValue, useMemo, useState } from "react";
import { Link } from "react-router";
import { pipelineSearchQuery, pipelinesQuery, type PipelineSummary } from "../api/pipelines.js";
import { Listing } from "../components/Listing.js";
import { fullTime, relativeTime } from "../components/formatting.js";
import { useCurrentUser } from "./access.js";
import "./pipelines.css";

type Pipeline = PipelineSummary;
type Sort = "updated" | "created" | "name" | "rules";

const SORTS: Record<Sort, { label: string; compare: (a: Pipeline, b: Pipeline) => number }> = {
  updated: { label: "Recently updated", compare: (a, b) => b.updated_at.localeCompare(a.updated_at) },
  created: { label: "Recently created", compare: (a, b) => b.created_at.localeCompare(a.created_at) },
  name: { label: "Name (A–Z)", compare: (a, b) => a.name.localeCompare(b.name) },
  rules: { label: "Most rules", compare: (a, b) => b.rules_count - a.rules_count },
};

export function PipelinesPage() {
  const [filter, setFilter] = useState("");
  const [visibility, setVisibility] = useState("");
  const [tag, setTag] = useState("");
  const [owner, setOwner] = useState("");
  const [sort, setSort] = useState<Sort>("updated");
  const me = useCurrentUser();
  const pipelines = useQuery(pipelinesQuery());
  const words = useDeferredValue(filter.trim().toLowerCase());
  // The service searches the pipelines' text too; its hits add the pipelines whose name does not match.
  const search = useQuery(pipelineSearchQuery(words));
  const all = useMemo(() => pipelines.data ?? [], [pipelines.data]);
  const tags = useMemo(() => [...new Set(all.flatMap((pipeline) => pipeline.tags))].sort(), [all]);
  const owners = new Set(all.map((pipeline) => pipeline.owner));
  const showOwner = me !== undefined && owners.size > 1;
  const contentHits = new Map((search.data?.hits ?? []).filter((hit) => hit.kind === "pipeline").map((hit) => [hit.id, hit.snippet]));
  const shown = all
    .filter((pipeline) => !visibility || pipeline.visibility === visibility)
    .filter((pipeline) => !tag || pipeline.tags.includes(tag))
    .filter((pipeline) => !owner || (owner === "mine") === (pipeline.owner === me?.id))
    .filter((pipeline) => !words || `${pipeline.name} ${pipeline.description ?? ""} ${pipeline.tags.join(" ")}`.toLowerCase().includes(words) || contentHits.has(pipeline.id))
    .sort(SORTS[sort].compare);
  const narrowed = Boolean(words || visibility || tag || owner);
  const firstTime = pipelines.isSuccess && all.length === 0;

  return (
    <section aria-labelledby="pipelines-title" className="pl-page">
      <div className="page-head">
        <h1 id="pipelines-title">
          Pipelines {pipelines.isSuccess && all.length > 0 ? <span className="count">{all.length}</span> : null}
        </h1>
        <div className="pl-head-actions">
          <Link className="pl-button" to="/pipelines/import">
            Import
          </Link>
          <Link className="pl-button pl-primary" to="/pipelines/new">
            New pipeline
          </Link>
        </div>
      </div>
      {firstTime ? (
        <FirstSteps />
      ) : (
        <>
          <div className="pl-toolbar" role="group" aria-label="Search and filters">
            <input type="search" placeholder="Search names, tags and pipeline text" aria-label="Filter pipelines" value={filter} onChange={(event) => setFilter(event.target.value)} />
            <label>
              Visibility
              <select aria-label="Visibility" value={visibility} onChange={(event) => setVisibility(event.target.value)}>
                <option value="">Any</option>
                <option value="private">Private</option>
                <option value="workspace">Workspace</option>
                <option value="link">Link</option>
              </select>
            </label>
            {tags.length > 0 ? (
              <label>
                Tag
                <select aria-label="Tag" value={tag} onChange={(event) => setTag(event.target.value)}>
                  <option value="">Any</option>
                  {tags.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            {showOwner ? (
              <label>
                Owner
                <select aria-label="Owner" value={owner} onChange={(event) => setOwner(event.target.value)}>
                  <option value="">Anyone</option>
                  <option value="mine">Mine</option>
                  <option value="others">Others'</option>
                </select>
              </label>
            ) : null}
            <label>
              Sort
              <select aria-label="Sort" value={sort} onChange={(event) => setSort(event.target.value as Sort)}>
                {Object.entries(SORTS).map(([value, { label }]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            {narrowed ? (
              <button
                type="button"
                onClick={() => {
                  setFilter("");
                  setVisibility("");
                  setTag("");
                  setOwner("");
                }}
              >
                Clear
              </button>
            ) : null}
          </div>
          <p className="muted pl-summary" aria-live="polite">
            {pipelines.isSuccess ? (narrowed ? `${shown.length} of ${all.length} pipelines match` : `${all.length} pipelines`) : ""}
            {words.length >= 2 && search.isFetching ? " · searching pipeline text…" : ""}
          </p>
          <Listing
            query={pipelines}
            rows={shown}
            rowKey={(pipeline) => pipeline.id}
            className="pl-listing"
            empty="No pipeline matches the search and filters. Clear them to see every pipeline."
            columns={[
              {
                header: "Name",
                cell: (pipeline) => {
                  const nameMatched = `${pipeline.name} ${pipeline.description ?? ""} ${pipeline.tags.join(" ")}`.toLowerCase().includes(words);
                  const snippet = words && !nameMatched ? contentHits.get(pipeline.id) : undefined;
                  return (
                    <>
                      <Link className="pl-name" to={`/pipelines/${pipeline.id}`}>
                        {pipeline.name}
                      </Link>
                      {pipeline.forked_from ? <span className="pl-chip pl-chip-quiet">fork</span> : null}
                      {pipeline.description ? <div className="muted">{pipeline.description}</div> : null}
                      {pipeline.tags.length > 0 ? (
                        <ul className="pl-tags" aria-label="Tags">
                          {pipeline.tags.map((name) => (
                            <li key={name} className="pl-chip">
                              {name}
                            </li>
                          ))}
                        </ul>
                      ) : null}
                      {snippet ? (
                        <div className="muted pl-snippet">
                          Found in the text: <span className="mono">{snippet}</span>
                        </div>
                      ) : null}
                    </>
                  );
                },
              },
              { header: "Rules", cell: (pipeline) => pipeline.rules_count },
              {
                header: "Visibility",
                cell: (pipeline) => (
                  <>
                    <span className={`badge badge-${pipeline.visibility}`}>{pipeline.visibility}</span>
                    {me && pipeline.owner !== me.id ? <div className="muted">shared with you</div> : null}
                  </>
                ),
              },
              {
                header: "Revision",
                cell: (pipeline) => (
                  <Link to={`/pipelines/${pipeline.id}/revisions`} aria-label={`${pipeline.revision}: revisions of ${pipeline.name}`}>
                    {pipeline.revision}
                  </Link>
                ),
              },
              {
                header: "Updated",
                cell: (pipeline) => (
                  <time dateTime={pipeline.updated_at} title={fullTime(pipeline.updated_at)}>
                    {relativeTime(pipeline.updated_at)}
                  </time>
                ),
              },
            ]}
          />
        </>
      )}
    </section>
  );
}

/** What a user with no pipeline yet sees: the four ways to get one. */
function FirstSteps() {
  return (
    <div className="pl-first-steps">
      <h2>No pipelines yet</h2>
      <p className="muted">A pipeline is a TOML file of rules that read and write files. Pick a way to start:</p>
      <ul className="pl-start-cards">
        <li>
          <Link to="/pipelines/new">
            <strong>Start from a template</strong>
            <span>Hello world, per-sample fan-out, RNA-seq and more, ready to run or adapt.</span>
          </Link>
        </li>
        <li>
          <Link to="/pipelines/new?from=scratch">
            <strong>Write one from scratch</strong>
            <span>A one-rule pipeline with comments that explain the format.</span>
          </Link>
        </li>
        <li>
          <Link to="/pipelines/new?from=describe">
            <strong>Describe your analysis</strong>
            <span>Say what it should do in a sentence; AI drafts the pipeline, the engine checks it, you review it.</span>
          </Link>
        </li>
        <li>
          <Link to="/pipelines/import">
            <strong>Import from a link</strong>
            <span>A share link from a colleague's strand or oxo-flow server, or a TOML file's address.</span>
          </Link>
        </li>
      </ul>
    </div>
  );
}
