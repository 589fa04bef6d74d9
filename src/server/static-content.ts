/**
 * Static content: `/assets/*` (content-hashed files, cached for a year and immutable) and `index.html` for
 * every other non-API path (client-side routes), served `no-cache` with the base path injected. The index
 * is read and rewritten once per process. Until the browser app is built into `dist/web/`, a minimal page
 * stands in for it.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, join, normalize, sep } from "node:path";
import type { Context } from "hono";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

const PLACEHOLDER = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>strand</title></head>
<body><h1>strand</h1><p>The strand service is running. The browser app is not built yet; the API is described at <a href="api/openapi.json">api/openapi.json</a>.</p></body></html>
`;

/** Normalises a base path to `/` or `/prefix/`. */
export function normaliseBasePath(value: string | undefined): string {
  const trimmed = (value ?? "/").trim().replace(/^\/*/, "/").replace(/\/*$/, "/");
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(trimmed)) throw new Error(`SERVICE_BASE_PATH may only hold a URL path, got '${value}'`);
  return trimmed;
}

/** Puts `<base href>` and the base path for the app's router into an index page. */
export function injectBasePath(html: string, basePath: string): string {
  const tags = `<base href="${basePath}"><meta name="strand-base-path" content="${basePath}">`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => `${head}${tags}`) : `${tags}${html}`;
}

/** Serves the app's files from a folder (default `dist/web`). */
export class StaticContent {
  private index: string | undefined;

  constructor(
    private readonly root: string,
    private readonly basePath: string,
  ) {}

  /** The index page, computed once. */
  indexPage(): string {
    if (this.index === undefined) {
      const file = join(this.root, "index.html");
      this.index = injectBasePath(existsSync(file) ? readFileSync(file, "utf8") : PLACEHOLDER, this.basePath);
    }
    return this.index;
  }

  /** Answers `/assets/<path>` from the root's assets folder, or undefined when there is no such file. */
  asset(c: Context, relative: string): Response | undefined {
    const assets = join(this.root, "assets");
    const path = normalize(join(assets, relative));
    // Never outside the assets folder, whatever the URL says.
    if (!path.startsWith(assets + sep)) return undefined;
    try {
      if (!statSync(path).isFile()) return undefined;
    } catch {
      return undefined;
    }
    return c.body(readFileSync(path), 200, {
      "Content-Type": TYPES[extname(path).toLowerCase()] ?? "application/octet-stream",
      "Cache-Control": "public, max-age=31536000, immutable",
    });
  }
}
