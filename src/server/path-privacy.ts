/**
 * Server file paths are for administrators: where the data folder, the run workspaces, the configuration
 * and the program live tells an outsider how the machine is laid out (and names other users' folders). For
 * everyone else the answers of the service say `<workspace>`, `<data folder>`, `<config folder>` or
 * `<strand>` instead; the rest of a path (`<workspace>/.strand/runs/…/stderr.log`) stays, so a message still
 * says which file it means. In personal mode the local user is an administrator and sees everything.
 */
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";
import type { Caller } from "./caller.js";

/** The folder the service's program is installed in (src/.. or dist/..). */
const PROGRAM_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** The folders this service keeps to itself. */
export interface ServerFolders {
  /** The data folder: the database, run workspaces under `users/<owner>/` (and older `runs/`, `pipelines/`). */
  dataDir?: string;
  /** The configuration folder (the license and settings). */
  configDir?: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Replaces the service's own folders in text and in JSON values shown to callers who are not administrators. */
export class PathPrivacy {
  private readonly rules: [RegExp, string][] = [];

  constructor(folders: ServerFolders) {
    const data = folders.dataDir ? resolve(folders.dataDir) : undefined;
    if (data && data !== "/") {
      const root = escapeRegExp(data);
      // A run's workspace first (its own name is all a reader needs), then the rest of the data folder.
      this.rules.push([new RegExp(`${root}/(?:users/[^/\\s"'<>]+/(?:runs|pipelines)/[^/\\s"'<>]+|runs/[^/\\s"'<>]+|pipelines/[^/\\s"'<>]+/[^/\\s"'<>]+)`, "g"), "<workspace>"]);
      this.rules.push([new RegExp(root, "g"), "<data folder>"]);
    }
    const config = folders.configDir ? resolve(folders.configDir) : undefined;
    if (config && config !== "/") this.rules.push([new RegExp(escapeRegExp(config), "g"), "<config folder>"]);
    if (PROGRAM_ROOT !== "/") this.rules.push([new RegExp(escapeRegExp(PROGRAM_ROOT), "g"), "<strand>"]);
  }

  /** The text with the service's folders named instead of spelled out (`html`: the names escaped for an HTML page). */
  hide(text: string, options: { html?: boolean } = {}): string {
    let shown = text;
    for (const [pattern, name] of this.rules) shown = shown.replace(pattern, options.html ? name.replace("<", "&lt;").replace(">", "&gt;") : name);
    return shown;
  }

  /** A copy of a JSON value with every string passed through `hide`. */
  hideIn<T>(value: T): T {
    if (typeof value === "string") return this.hide(value) as T;
    if (Array.isArray(value)) return value.map((item: unknown) => this.hideIn(item)) as T;
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, this.hideIn(item)])) as T;
    }
    return value;
  }

  /** The value as `caller` may see it: unchanged for administrators, paths hidden for everyone else. */
  forCaller<T>(caller: Caller, value: T): T {
    return caller.admin ? value : this.hideIn(value);
  }
}
