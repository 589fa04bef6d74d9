/**
 * What the run made: its declared outputs with sizes, each downloadable and previewable in place (the first
 * 64 KiB of a text file, fetched with a Range request; images as they are), and the whole workspace
 * browsable folder by folder, each folder downloadable as a zip.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { fileUrl, filePreviewQuery, folderQuery, resultsQuery } from "../api/runs.js";
import { ErrorNotice } from "../components/ErrorNotice.js";
import { Listing } from "../components/Listing.js";
import { byteSize, formatCount, fullTime } from "../components/formatting.js";
import { useInView } from "./useInView.js";

const PREVIEW_BYTES = 64 * 1024;
const IMAGE = /\.(png|jpe?g|gif|webp|svg|bmp|ico)$/i;

export function ResultsPanel({ runId, ended }: { runId: string; ended: boolean }) {
  const [anchor, visible] = useInView<HTMLDivElement>();
  const results = useQuery({ ...resultsQuery(runId), enabled: visible, refetchInterval: ended ? false : 15_000 });
  const [preview, setPreview] = useState<string | undefined>();
  const [browsing, setBrowsing] = useState(false);
  const files = results.data?.files ?? [];
  // Results left on a remote cluster are listed with where they are; they are not here to preview or download.
  const remote = results.data?.remote ?? null;
  return (
    <div className="results" ref={anchor}>
      {results.error ? <ErrorNotice error={results.error} /> : null}
      {results.data ? (
        files.length === 0 ? (
          <p className="muted">{ended ? "The run made no declared output." : "Outputs appear here as jobs finish."}</p>
        ) : (
          <>
            <p className="muted">
              {formatCount(files.length)} file{files.length === 1 ? "" : "s"}, {byteSize(results.data.total_size_bytes)}
              {results.data.truncated ? " (the first 10,000 listed)" : ""}
            </p>
            {remote ? (
              <p className="notice-card" role="note">
                These results stay on cluster {remote.cluster_id}, in <span className="mono">{remote.workspace}</span>: the paths below are relative to that folder there.
              </p>
            ) : null}
            <Listing
              rows={files.slice(0, 500)}
              rowKey={(file) => file.path}
              className="compact"
              rowClassName={(file) => (preview === file.path ? "selected" : undefined)}
              empty={null}
              columns={[
                { header: "File", className: "mono", cell: (file) => file.path },
                { header: "Rule", cell: (file) => file.rule },
                { header: "Size", className: "mono", cell: (file) => byteSize(file.size_bytes) },
                { header: "Modified", className: "muted", cell: (file) => fullTime(file.modified_at) },
                {
                  header: "Actions",
                  hideHeader: true,
                  className: "actions",
                  cell: (file) =>
                    remote ? (
                      <span className="muted">on the cluster</span>
                    ) : (
                    <>
                      <button type="button" className="link-button" aria-pressed={preview === file.path} aria-label={`Preview ${file.path}`} onClick={() => setPreview(preview === file.path ? undefined : file.path)}>
                        Preview
                      </button>
                      <a href={fileUrl(runId, file.path, { download: true })} download aria-label={`Download ${file.path}`}>
                        Download
                      </a>
                    </>
                    ),
                },
              ]}
            />
            {files.length > 500 ? <p className="muted">The first 500 are listed here; browse the workspace for the rest.</p> : null}
          </>
        )
      ) : results.isPending ? (
        <p className="muted">{visible ? "Loading the results…" : ""}</p>
      ) : null}
      {preview ? <FilePreview runId={runId} path={preview} onClose={() => setPreview(undefined)} /> : null}
      <div className="workspace-browser">
        <button type="button" aria-expanded={browsing} onClick={() => setBrowsing(!browsing)}>
          {browsing ? "Hide the workspace" : "Browse the workspace"}
        </button>
        {browsing ? <FolderBrowser runId={runId} onPreview={setPreview} /> : null}
      </div>
    </div>
  );
}

/** The start of a text file, or an image, in place. */
function FilePreview({ runId, path, onClose }: { runId: string; path: string; onClose: () => void }) {
  const image = IMAGE.test(path);
  const text = useQuery({ ...filePreviewQuery(runId, path, PREVIEW_BYTES), enabled: !image });
  return (
    <section className="file-preview" aria-label={`Preview of ${path}`}>
      <div className="log-head">
        <h3 className="mono">{path}</h3>
        <a href={fileUrl(runId, path, { download: true })} download>
          Download
        </a>
        <button type="button" onClick={onClose}>
          Close preview
        </button>
      </div>
      {image ? (
        <img src={fileUrl(runId, path)} alt={`The image ${path}`} className="preview-image" />
      ) : text.error ? (
        <ErrorNotice error={text.error} />
      ) : !text.data ? (
        <p className="muted">Loading…</p>
      ) : text.data.text === null ? (
        <p className="muted">A binary file of {byteSize(text.data.size)}: download it to open it.</p>
      ) : (
        <>
          <pre className="log-lines preview-text" tabIndex={0} aria-label={`Contents of ${path}`}>
            {text.data.text || "(empty file)"}
          </pre>
          {text.data.partial ? <p className="muted">The first {byteSize(PREVIEW_BYTES)} of {byteSize(text.data.size)}; download the file for all of it.</p> : null}
        </>
      )}
    </section>
  );
}

/** The run's workspace, one folder at a time, with a breadcrumb. */
function FolderBrowser({ runId, onPreview }: { runId: string; onPreview: (path: string) => void }) {
  const [path, setPath] = useState("");
  const folder = useQuery(folderQuery(runId, path));
  const parts = path ? path.split("/") : [];
  return (
    <div className="folder">
      <nav aria-label="Folder" className="breadcrumb">
        <button type="button" className="link-button" onClick={() => setPath("")} aria-current={path === "" ? "location" : undefined}>
          workspace
        </button>
        {parts.map((part, index) => (
          <span key={index}>
            {" / "}
            <button type="button" className="link-button" onClick={() => setPath(parts.slice(0, index + 1).join("/"))} aria-current={index === parts.length - 1 ? "location" : undefined}>
              {part}
            </button>
          </span>
        ))}
        <a className="zip-link" href={fileUrl(runId, path, { download: true, zip: true })} download>
          Download folder as zip
        </a>
      </nav>
      {folder.error ? <ErrorNotice error={folder.error} /> : null}
      {folder.data ? (
        folder.data.entries.length === 0 ? (
          <p className="muted">This folder is empty.</p>
        ) : (
          <ul className="folder-entries">
            {folder.data.entries.map((entry) => (
              <li key={entry.path}>
                {entry.type === "folder" ? (
                  <button type="button" className="link-button" onClick={() => setPath(entry.path)}>
                    <span aria-hidden="true">📁 </span>
                    {entry.name}/
                  </button>
                ) : (
                  <>
                    <button type="button" className="link-button" onClick={() => onPreview(entry.path)} aria-label={`Preview ${entry.path}`}>
                      <span aria-hidden="true">📄 </span>
                      {entry.name}
                    </button>
                    <span className="muted mono">{byteSize(entry.size_bytes)}</span>
                    <a href={fileUrl(runId, entry.path, { download: true })} download aria-label={`Download ${entry.path}`}>
                      Download
                    </a>
                  </>
                )}
              </li>
            ))}
          </ul>
        )
      ) : folder.isPending ? (
        <p className="muted">Loading…</p>
      ) : null}
      {folder.data?.truncated ? <p className="muted">More entries than one listing shows; download the folder as a zip for all.</p> : null}
    </div>
  );
}
