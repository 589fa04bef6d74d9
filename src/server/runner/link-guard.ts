/**
 * The service writes some of a run's files inside its workspace (the pipeline text, the request, the
 * engine's log, the metrics, a target's profile), and jobs may write anything there too — a symbolic link
 * in particular. A sandboxed job sees nothing outside its workspace, but the service does: a link it
 * followed would let a job make the service overwrite the database or another user's files. So the
 * service writes there only along paths without links: every folder below the workspace is checked
 * (lstat), and the file itself is opened with O_NOFOLLOW.
 */
import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, writeSync } from "node:fs";
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

/**
 * Opens a file below `root` for writing, after assertLinkFree, never following a link at the file itself
 * and never waiting: a FIFO a job left there (an open for writing would wait for a reader forever) or any
 * other non-regular file is refused with LinkInWorkspaceError.
 */
export function openLinkFree(root: string, path: string, mode: "append" | "truncate"): number {
  assertLinkFree(root, path);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY | (mode === "append" ? constants.O_APPEND : 0);
  let fd: number;
  try {
    fd = openSync(path, flags, 0o644);
  } catch (error) {
    // ENXIO: a FIFO without a reader; ELOOP: a link put there after the check.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENXIO" || code === "ELOOP") throw new LinkInWorkspaceError(`the workspace has a link or a FIFO at ${relative(root, path)}, where the service writes its files`);
    throw error;
  }
  // Truncated only once it is known to be a regular file (O_TRUNC on open would act on whatever is there).
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw new LinkInWorkspaceError(`the workspace has something other than a file at ${relative(root, path)}, where the service writes its files`);
  }
  if (mode === "truncate") ftruncateSync(fd, 0);
  return fd;
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

/**
 * Appends to a file below `root` (see openLinkFree), best effort: false when it cannot be written (a link
 * or a FIFO a job left there, a full disk), so a log line is lost, never the run.
 */
export function appendLinkFree(root: string, path: string, content: string | Buffer): boolean {
  try {
    const fd = openLinkFree(root, path, "append");
    try {
      writeSync(fd, typeof content === "string" ? Buffer.from(content) : content);
    } finally {
      closeSync(fd);
    }
    return true;
  } catch {
    return false;
  }
}
