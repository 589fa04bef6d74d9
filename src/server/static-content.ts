/**
 * Static content: `/assets/*` (content-hashed files, cached for a year and immutable), the few files of the
 * package's `public/` folder that Vite copies as they are (favicon, `robots.txt`, the web manifest; cached a
 * day, by name: nothing else at the root is served), and `index.html` for every other non-API path
 * (client-side routes), served `no-cache` with the base path injected. Assets go
 * through `@hono/node-server`'s static middleware (MIME types, Range requests, streamed bodies, a
 * precompressed `.br`/`.gz` beside a file when the client accepts it) with an ETag from the file's size and
 * time, so a conditional request is answered 304. The index is read and rewritten once per process. Until
 * the browser app is built into `dist/web/`, a minimal page stands in for it.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import type { MiddlewareHandler } from "hono";
import { etag } from "hono/etag";

const PLACEHOLDER = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>strand</title></head>
<body><h1>strand</h1><p>The strand service is running. The browser app is not built yet; the API is described at <a href="api/openapi.json">api/openapi.json</a>.</p></body></html>
`;

/** The files of `public/` (Vite's publicDir), served at the root under these names only; a test keeps the two equal. */
export const PUBLIC_FILES = ["favicon.svg", "manifest.webmanifest", "robots.txt"] as const;

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
  private etag: string | undefined;

  constructor(
    private readonly root: string,
    private readonly basePath: string,
  ) {}

  /**
   * The index page's strong ETag: a digest of its text, so every instance serving the same build (behind one
   * load balancer) gives the same one, and a reload that reaches another instance is still a 304.
   */
  indexEtag(): string {
    this.etag ??= `"${createHash("sha256").update(this.indexPage()).digest("base64url").slice(0, 22)}"`;
    return this.etag;
  }

  /** Whether an `If-None-Match` header names the index page's ETag (or `*`); weak comparison, as RFC 9110 asks for GET. */
  indexUnchanged(ifNoneMatch: string | undefined): boolean {
    if (!ifNoneMatch) return false;
    const etag = this.indexEtag();
    return ifNoneMatch.split(",").some((tag) => {
      const trimmed = tag.trim();
      return trimmed === "*" || trimmed.replace(/^W\//, "") === etag;
    });
  }

  /** The index page, computed once. */
  indexPage(): string {
    if (this.index === undefined) {
      const file = join(this.root, "index.html");
      this.index = injectBasePath(existsSync(file) ? readFileSync(file, "utf8") : PLACEHOLDER, this.basePath);
    }
    return this.index;
  }

  /**
   * The handlers of `GET /assets/*`, outermost first: conditional requests (304 for a matching
   * `If-None-Match`), an ETag from the file's size and modification time, the year-long immutable cache, and
   * the file itself. A path that is not a file under the root falls through to the next handler.
   */
  assetHandlers(): MiddlewareHandler[] {
    const statEtag: MiddlewareHandler = async (c, next) => {
      await next();
      const modified = c.res.headers.get("Last-Modified");
      if (c.res.ok && modified && !c.res.headers.has("ETag")) {
        // The full size, not a range's, with the encoding, so every variant of a file has its own tag.
        const size = c.res.headers.get("Content-Range")?.split("/")[1] ?? c.res.headers.get("Content-Length") ?? "";
        c.res.headers.set("ETag", `W/"${size}-${Date.parse(modified).toString(36)}${c.res.headers.get("Content-Encoding") ?? ""}"`);
      }
    };
    const immutable: MiddlewareHandler = async (c, next) => {
      await next();
      if (c.res.ok || c.res.status === 206) c.res.headers.set("Cache-Control", "public, max-age=31536000, immutable");
    };
    return [etag(), statEtag, immutable, this.files()];
  }

  /**
   * The handlers of `GET /<name>` for a file of PUBLIC_FILES: an ETag, a day's cache (the names do not change
   * when the content does), and the file; a build without it falls through to the index page.
   */
  publicFileHandlers(): MiddlewareHandler[] {
    const daily: MiddlewareHandler = async (c, next) => {
      await next();
      if (c.res.ok) c.res.headers.set("Cache-Control", "public, max-age=86400");
    };
    return [etag(), daily, this.files()];
  }

  /** The files under the root (nothing when the app is not built: serveStatic would print its own warning). */
  private files(): MiddlewareHandler {
    return existsSync(this.root) ? serveStatic({ root: this.root, precompressed: true }) : (_c, next) => next();
  }
}
