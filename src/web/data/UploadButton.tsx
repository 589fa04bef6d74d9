/** Uploads into the caller's own files folder (`POST /api/files`, multipart), from the browser's file chooser. */
import { useId, useRef, type ChangeEvent } from "react";
import { useUpload } from "../api/data.js";
import { ErrorNotice } from "../components/ErrorNotice.js";

/** A button that opens the file chooser and uploads what was chosen into the own folder's `folder`. */
export function UploadButton({ folder, onUploaded }: { folder: string; onUploaded: (folder: string) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUpload(folder);
  const id = useId();
  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    // A copy: the input's FileList is live, and clearing the input (so the same file can be chosen again) empties it.
    const files = Array.from(event.target.files ?? []);
    event.target.value = "";
    if (files.length === 0) return;
    upload.mutate(files, { onSuccess: () => onUploaded(folder) });
  };
  return (
    <span className="data-upload">
      <input ref={input} id={id} type="file" multiple hidden onChange={chosen} aria-label={`Upload files into ${folder}`} />
      <button type="button" onClick={() => input.current?.click()} disabled={upload.isPending} aria-busy={upload.isPending}>
        {upload.isPending ? "Uploading…" : `Upload files into ${folder}/`}
      </button>
      {upload.data ? (
        <span className="muted" role="status">
          {" "}
          Uploaded {upload.data.files.length} file{upload.data.files.length === 1 ? "" : "s"}.
        </span>
      ) : null}
      {upload.error ? <ErrorNotice error={upload.error} /> : null}
    </span>
  );
}
