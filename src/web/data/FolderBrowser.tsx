/**
 * Browsing the folders the caller may read (`GET /api/data/roots`, `GET /api/files?path=`): your own files
 * folder (relative paths; uploads go there) and the data roots (absolute paths). Folders open on click or
 * Enter, "Up" goes back; the folder shown is the one analysed. A path can also be typed.
 */
import { useQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { dataFolderQuery, dataRootsQuery } from "../api/data.js";
import { QueryState } from "../components/QueryState.js";
import { byteSize } from "../components/formatting.js";
import { UploadButton } from "./UploadButton.js";

interface Place {
  /** The root's request path: `.` for the own folder, else absolute. */
  root: string;
  /** The folder shown: `.` or relative in the own folder, absolute elsewhere. */
  path: string;
}

const rootLabel = (root: { kind: string; path: string }) => (root.kind === "own" ? "Your files" : root.kind === "home" ? `Home (${root.path})` : root.path);

/** The parent of `path` inside `root`, or undefined at the root. */
function parentOf(place: Place): string | undefined {
  if (place.path === place.root) return undefined;
  const cut = place.path.replace(/\/+$/, "").lastIndexOf("/");
  if (place.root === ".") return cut < 0 ? "." : place.path.slice(0, cut);
  const parent = cut <= 0 ? "/" : place.path.slice(0, cut);
  return parent.length < place.root.length ? place.root : parent;
}

export function FolderBrowser({ onAnalyse, analysing }: { onAnalyse: (path: string) => void; analysing: boolean }) {
  const roots = useQuery(dataRootsQuery());
  const [place, setPlace] = useState<Place>({ root: ".", path: "." });
  const [typed, setTyped] = useState("");
  const typedId = useId();
  const listing = useQuery(dataFolderQuery(place.path));
  const open = (path: string) => setPlace((current) => ({ ...current, path }));
  const up = parentOf(place);
  const shownPath = place.root === "." ? (place.path === "." ? "Your files" : `Your files / ${place.path.split("/").join(" / ")}`) : place.path;
  const entries = listing.data?.entries ?? [];
  const folders = entries.filter((entry) => entry.type === "folder");
  const files = entries.filter((entry) => entry.type === "file");
  const submitTyped = (event: FormEvent) => {
    event.preventDefault();
    if (typed.trim()) onAnalyse(typed.trim());
  };

  return (
    <div className="data-browser">
      {roots.data && roots.data.roots.length > 1 ? (
        <div className="data-roots" role="group" aria-label="Folders you may read">
          {roots.data.roots.map((root) => (
            <button key={root.path} type="button" aria-pressed={place.root === root.path} onClick={() => setPlace({ root: root.path, path: root.path })}>
              {rootLabel(root)}
            </button>
          ))}
        </div>
      ) : null}
      <div className="data-location">
        <button type="button" onClick={() => up !== undefined && open(up)} disabled={up === undefined} aria-label="Up one folder">
          ↑ Up
        </button>
        <span className="mono data-where" aria-live="polite">
          {shownPath}
        </span>
        <button type="button" className="pl-primary" onClick={() => onAnalyse(place.path)} disabled={analysing || files.length + folders.length === 0}>
          Analyse this folder
        </button>
      </div>
      <QueryState query={listing} empty={listing.data && entries.length === 0 ? (place.root === "." ? "Nothing here yet: upload files, or pick a data folder." : "This folder is empty.") : null} />
      {entries.length > 0 ? (
        <ul className="data-entries" aria-label={`Contents of ${shownPath}`}>
          {folders.map((entry) => (
            <li key={entry.path}>
              <button type="button" className="data-folder" onClick={() => open(entry.path)}>
                <span aria-hidden="true">📁</span> {entry.name}/
              </button>
            </li>
          ))}
          {files.map((entry) => (
            <li key={entry.path} className="data-file">
              <span className="mono">{entry.name}</span> <span className="muted">{byteSize(entry.size)}</span>
            </li>
          ))}
          {listing.data?.truncated ? <li className="muted">… more entries than can be listed</li> : null}
        </ul>
      ) : null}
      <div className="data-more">
        {place.root === "." ? <UploadButton folder={place.path === "." ? "uploads" : place.path} onUploaded={open} /> : null}
        <form className="data-typed" onSubmit={submitTyped}>
          <label htmlFor={typedId}>Or a path</label>
          <input id={typedId} className="mono" value={typed} placeholder={place.root === "." ? "uploads/run-42" : `${place.root}/…`} onChange={(event) => setTyped(event.target.value)} />
          <button type="submit" disabled={analysing || typed.trim() === ""}>
            Analyse
          </button>
        </form>
      </div>
    </div>
  );
}
