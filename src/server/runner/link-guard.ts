/**
 * The service writes some of a run's files inside its workspace (the pipeline text, the request, the
 * engine's log, the metrics, a target's profile), and jobs may write anything there too — a symbolic link
 * in particular. A sandboxed job sees nothing outside its workspace, but the service does: a link it
 * followed would let a job make the service overwrite the database or another user's files. So the
 * service writes there only along paths without links: every folder below the workspace is checked
 * (lstat), and the file itself is opened with O_NOFOLLOW.
 */
import { closeSync, constants, lstatSync, openSync, writeSync } from "node:fs";
import { relative, sep } from "node:path";

/** A path below the workspace the service would write through a link (or outside the workspace). */
export class LinkInWorkspaceError extends Error {}

/**
 * Throws LinkInWorkspaceError when `path` lies outside `root`, or when any existing component below `root`
 * (the file included) is a symbolic link; missing components are fine (they are made as folders later).
 */
export function assertLinkFree(root: string, path: string): void {
  const rest = relative(root, path);
  if (rest === "") return;
  if (rest.startsWith("..") || rest.startsWith(sep)) throw new LinkInWorkspaceError(`${path} is outside the workspace ${root}`);
  let current = root;
  for (const part of rest.split(sep)) {
    current = `${current}${sep}${part}`;
    let link: boolean;
    try {
      link = lstatSync(current).isSymbolicLink();
    } catch {
      return; // absent from here on
    }
    if (link) throw new LinkInWorkspaceError(`the workspace has a symbolic link at ${relative(root, current)}, where the service writes its files`);
  }
}

/** Opens a file below `root` for writing, after assertLinkFree, never following a link at the file itself. */
export function openLinkFree(root: string, path: string, mode: "append" | "truncate"): number {
  assertLinkFree(root, path);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | (mode === "append" ? constants.O_APPEND : constants.O_TRUNC);
  return openSync(path, flags, 0o644);
}

/** Writes a whole file below `root` (see openLinkFree). */
export function writeLinkFree(root: string, path: string, text: string | Buffer): void {
  const fd = openLinkFree(root, path, "truncate");
  try {
    writeSync(fd, typeof text === "string" ? Buffer.from(text) : text);
  } finally {
    closeSync(fd);
  }
}
