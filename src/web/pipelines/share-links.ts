/**
 * The two forms of a share link: the app's own page for a token (`<app>/share/<token>`, what people open)
 * and the import form (`strand+https://<host>/share/<token>`, what `POST /api/pipelines/import` and `strand`
 * on another machine take). Pure: the app's base address is given.
 */

/** The address of the app's page for a share token, under the app's base address `appBase`. */
export function sharePageUrl(token: string, appBase: string): string {
  return new URL(`share/${token}`, appBase).href;
}

/** The import form of a link to one of this app's share pages (under `appBase`), or undefined for any other text. */
export function importFormOfAppShareLink(text: string, appBase: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  const app = new URL(appBase);
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.host !== app.host || !url.pathname.startsWith(app.pathname)) return undefined;
  const token = /^share\/([A-Za-z0-9_-]{1,128})$/.exec(url.pathname.slice(app.pathname.length))?.[1];
  return token ? `strand+https://${url.host}/share/${token}` : undefined;
}

/** The import form of a share link of this app as the page at `host` opens it. */
export function importFormOfToken(token: string, host: string): string {
  return `strand+https://${host}/share/${token}`;
}
