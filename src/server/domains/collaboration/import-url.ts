/**
 * Import URLs: the forms a pipeline can be imported from, and nothing else.
 *
 * - `strand+https://<host>/share/<token>` names a share on a strand server (this one or another);
 * - `oxo+https://<host>/share/<token>` names a share on an oxo-flow server (the predecessor), whose landing
 *   document is at the same `/api/share/<token>` address but in that product's shape;
 * - `toml+https://<location>` names a raw pipeline file served at `https://<location>`.
 *
 * Parsing is strict because the result drives a server-side fetch: only https, no userinfo, no whitespace
 * or control characters, a bounded length, and a share path that is exactly `/share/<token>` as written
 * (checked before the WHATWG parser would resolve `..`, backslashes or percent-encoded dots). This module
 * only reads text; whether the host may be contacted is decided by remote-fetch.ts when it resolves it.
 */

/** The products whose share links can be imported. */
export type ShareServer = "strand" | "oxo-flow";

/** Where an import URL points: a share (local or remote) or a raw pipeline file. */
export type ImportSource =
  | {
      kind: "share";
      /** Which product's share link it is, so which shape its landing document has. */
      server: ShareServer;
      /** host[:port] as the WHATWG parser normalises it (lower-cased, punycode, port 443 dropped). */
      host: string;
      token: string;
      /** `https://<host>/api/share/<token>`, the share's API address on that host. */
      fetchUrl: string;
    }
  | {
      kind: "toml";
      /** `https://<location>` without its fragment. */
      fetchUrl: string;
    };

/** An import URL that is not one of the accepted forms; the message names what is wrong. */
export class InvalidImportUrl extends Error {
  constructor(
    message: string,
    readonly suggestion: string,
  ) {
    super(message);
    this.name = "InvalidImportUrl";
  }
}

/** Longest import URL accepted, in characters. */
export const MAX_IMPORT_URL_LENGTH = 2048;

const SHARE_SCHEMES: Record<string, ShareServer> = { "strand+https": "strand", "oxo+https": "oxo-flow" };
const TOML_SCHEME = "toml+https";
const FORMS_SUGGESTION =
  "use strand+https://<host>/share/<token> (or oxo+https://<host>/share/<token> from an oxo-flow server) for a share, or toml+https://<location> for a pipeline file";
const SHARE_PATH = /^\/share\/([A-Za-z0-9_-]{1,128})$/;
const SCHEME_PREFIX = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/** Reads an import URL into what it points at; throws InvalidImportUrl for anything else. */
export function parseImportUrl(raw: string): ImportSource {
  if (raw.length > MAX_IMPORT_URL_LENGTH) {
    throw new InvalidImportUrl(`import URL is too long (${raw.length} characters, at most ${MAX_IMPORT_URL_LENGTH})`, "use a shorter address");
  }
  if (raw.length === 0) throw new InvalidImportUrl("import URL is empty", FORMS_SUGGESTION);
  if (hasWhitespaceOrControl(raw)) {
    throw new InvalidImportUrl("import URL contains whitespace or control characters", "remove spaces and line breaks; percent-encode them inside a path");
  }
  const scheme = SCHEME_PREFIX.exec(raw)?.[1]?.toLowerCase();
  if (scheme === undefined) throw new InvalidImportUrl("import URL does not start with a scheme and :// (expected strand+https://, oxo+https:// or toml+https://)", FORMS_SUGGESTION);
  const server = Object.hasOwn(SHARE_SCHEMES, scheme) ? SHARE_SCHEMES[scheme] : undefined;
  if (server === undefined && scheme !== TOML_SCHEME) throw unknownScheme(scheme, raw);

  const rest = raw.slice(scheme.length + "://".length);
  // The authority as written: WHATWG would skip extra slashes (`https:///x` has host "x") and drop an empty
  // userinfo (`https://@x`), so both checks look at the raw text.
  const authority = /^[^/\\?#]*/.exec(rest)?.[0] ?? "";
  if (authority.length === 0) throw new InvalidImportUrl("import URL has no host", `write the host right after ${scheme}://`);
  if (authority.includes("@")) {
    throw new InvalidImportUrl("import URL contains a user name or password (user:pass@); credentials are not accepted", "remove the part before '@' in the host");
  }

  let url: URL;
  try {
    url = new URL(`https://${rest}`);
  } catch {
    throw new InvalidImportUrl(`import URL is not a valid URL after ${scheme}://`, FORMS_SUGGESTION);
  }
  if (url.hostname.length === 0) throw new InvalidImportUrl("import URL has no host", `write the host right after ${scheme}://`);

  if (server === undefined) {
    url.hash = "";
    return { kind: "toml", fetchUrl: url.href };
  }
  const writtenPath = rest.slice(authority.length);
  const token = SHARE_PATH.exec(writtenPath)?.[1];
  if (token === undefined) {
    throw new InvalidImportUrl(
      "share URL path must be exactly /share/<token> (token: 1 to 128 characters of A-Z, a-z, 0-9, '_' and '-'; no query or fragment)",
      "copy the share link as the sharing dialog shows it",
    );
  }
  return { kind: "share", server, host: url.host, token, fetchUrl: `https://${url.host}/api/share/${token}` };
}

/** True for any whitespace (ASCII or Unicode) or C0/C1 control character. */
function hasWhitespaceOrControl(text: string): boolean {
  if (/\s/u.test(text)) return true;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/** The error for a scheme that is not one of the import forms, with a hint for the near misses. */
function unknownScheme(scheme: string, raw: string): InvalidImportUrl {
  if (scheme === "strand+http" || scheme === "oxo+http" || scheme === "toml+http") {
    return new InvalidImportUrl(`import URL scheme "${scheme}" is not allowed: only https is`, `use ${scheme}s://`);
  }
  if (scheme === "https" && /^https:\/\/[^/?#]+\/share\/[A-Za-z0-9_-]+$/i.test(raw)) {
    // oxo-flow's web page copies its share links without the oxo+ prefix.
    return new InvalidImportUrl("a plain https:// URL is not an import URL", `for a share link copied from an oxo-flow page, write oxo+${raw}; for a strand share, strand+${raw}`);
  }
  if (scheme === "https" || scheme === "http") {
    return new InvalidImportUrl(`a plain ${scheme}:// URL is not an import URL`, FORMS_SUGGESTION);
  }
  return new InvalidImportUrl(`unknown import URL scheme "${scheme}"`, FORMS_SUGGESTION);
}

/** True when a share's host[:port] names one of this server's own hosts (case-insensitive, port 443 implied). */
export function isSameHost(sourceHost: string, ownHosts: string[]): boolean {
  const source = normaliseHost(sourceHost);
  return ownHosts.some((own) => normaliseHost(own) === source);
}

/** host[:port] in one spelling: lower-case, no default port, no trailing dot on the name. */
function normaliseHost(host: string): string {
  let normalised: string;
  try {
    normalised = new URL(`https://${host}/`).host;
  } catch {
    normalised = host.toLowerCase().replace(/:443$/, "");
  }
  return normalised.replace(/\.(?=(:\d+)?$)/, "");
}
