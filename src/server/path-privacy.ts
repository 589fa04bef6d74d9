/**
 * Server file paths are for administrators: where the data folder, the run workspaces, the configuration
 * and the program live tells an outsider how the machine is laid out (and names other users' folders). For
 * everyone else the answers of the service say `<workspace>`, `<data folder>`, `<config folder>` or
 * `<strand>` instead; the rest of a path (`<workspace>/.strand/runs/…/stderr.log`) stays, so a message still
 * says which file it means. Every other absolute path (`/etc/…`, `/home/<someone>/…`, `/proc/self/environ`)
 * keeps only its last part: `<path>/environ`. URLs, the service's own URL paths (`/api/…`, `/assets/…`) and
 * relative paths are not server paths and stay. In personal mode the local user is an administrator and sees
 * everything.
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
  /** Folders every caller is shown anyway (the data roots, `SERVICE_DATA_ROOTS`): paths inside them stay as they are. */
  shared?: readonly string[];
}

/**
 * An absolute path: a `/` and a name at the start of the text or after a space, a quote, an opening bracket,
 * `=`, `,` or `:` (`PATH=/a:/b`), but not after a word or another `/` (a URL's path, `a/b`); it runs to the
 * next space, quote, bracket or separator. Group 1 is what precedes it, group 2 the path.
 */
const ABSOLUTE_PATH = /(^|[\s"'`([{=,:])(\/(?!\/)[^\s"'`<>()[\]{},;:|]+)/g;

/** The same in HTML, where text also starts after a tag's `>`. */
const ABSOLUTE_PATH_IN_HTML = /(^|[\s"'`([{=,:>])(\/(?!\/)[^\s"'`<>()[\]{},;:|]+)/g;

/** `file:///etc/x`: a path behind the scheme of a file URL. */
const FILE_URL = /\bfile:\/\/(\/[^\s"'`<>()[\]{},;:|]+)/g;

/** The service's own URL paths, which messages quote and which are no files. */
const SERVICE_PATHS = /^\/(?:api|assets)(?:[/?#]|$)/;

/** `<path>/` and the path's last part (a sentence's full stop stays outside it). */
function lastPartOnly(path: string, placeholder: string): string {
  const [, body = path, stop = ""] = /^(.*?)([.!?]*)$/.exec(path) ?? [];
  const last = body.endsWith("/") ? "" : body.slice(body.lastIndexOf("/") + 1);
  return `${placeholder}/${last}${stop}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Replaces the service's own folders in text and in JSON values shown to callers who are not administrators. */
export class PathPrivacy {
  private readonly rules: [RegExp, string][] = [];
  private readonly shared: string[];

  constructor(folders: ServerFolders) {
    this.shared = (folders.shared ?? []).map((folder) => resolve(folder)).filter((folder) => folder !== "/");
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

  /** The text with the service's folders named and other absolute paths cut to their last part (`html`: the names escaped for an HTML page). */
  hide(text: string, options: { html?: boolean } = {}): string {
    const named = (name: string) => (options.html ? name.replace("<", "&lt;").replace(">", "&gt;") : name);
    let shown = text;
    for (const [pattern, name] of this.rules) shown = shown.replace(pattern, named(name));
    shown = shown.replace(FILE_URL, (_match, path: string) => `file://${lastPartOnly(path, named("<path>"))}`);
    return shown.replace(options.html ? ABSOLUTE_PATH_IN_HTML : ABSOLUTE_PATH, (match, before: string, path: string) => (SERVICE_PATHS.test(path) || this.isShared(path) ? match : `${before}${lastPartOnly(path, named("<path>"))}`));
  }

  /** Whether a path is inside a folder every caller is shown (a path climbing with `..` never is). */
  private isShared(path: string): boolean {
    if (/(^|\/)\.\.(\/|$)/.test(path)) return false;
    return this.shared.some((folder) => path === folder || path.startsWith(`${folder}/`));
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
