/**
 * Response compression by `Accept-Encoding`: brotli first, then gzip. Event streams are never compressed
 * (a compressor would hold events back), nor are small bodies, images, bodies already encoded (a
 * precompressed asset), partial content (a compressed range would not be the range asked for) and file
 * answers with a Content-Disposition (a run's files are streamed, not buffered whole).
 */
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { MiddlewareHandler } from "hono";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const MINIMUM_BYTES = 1024;
const COMPRESSIBLE = /^(application\/(json|javascript|xml)|text\/(?!event-stream)|image\/svg\+xml)/;

/** Picks the encoding the client accepts: `br`, else `gzip`, else none (q=0 means refused). */
export function chooseEncoding(header: string | undefined): "br" | "gzip" | undefined {
  if (!header) return undefined;
  const accepted = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((param) => /^\s*q=([\d.]+)/.exec(param)?.[1]).find(Boolean);
    accepted.set(name!.trim(), q === undefined ? 1 : Number(q));
  }
  const wildcard = accepted.get("*");
  const weight = (name: string) => accepted.get(name) ?? wildcard ?? 0;
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return undefined;
}

/** The compression middleware (outermost). */
export function compression(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    const type = res.headers.get("Content-Type") ?? "";
    // A file answer (Content-Disposition) is streamed as it is read, with ranges over its own bytes: never buffered here.
    if (res.headers.has("Content-Encoding") || res.status === 206 || res.headers.has("Content-Range") || res.headers.has("Content-Disposition") || !COMPRESSIBLE.test(type) || c.req.method === "HEAD") return;
    res.headers.append("Vary", "Accept-Encoding");
    const encoding = chooseEncoding(c.req.header("Accept-Encoding"));
    // The body is looked at last: touching it makes the server adapter build a full stream for the response.
    if (!encoding || !res.body) return;
    const raw = Buffer.from(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    // Hono copies the old response's headers onto a new one (a stale Content-Length included, which left
    // browsers waiting for bytes that never came): clear it first, the headers wanted are in `headers`.
    c.res = undefined;
    if (raw.length < MINIMUM_BYTES) {
      c.res = new Response(raw, { status: res.status, headers });
      return;
    }
    const body = encoding === "br" ? await brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }) : await gzipAsync(raw);
    headers.set("Content-Encoding", encoding);
    headers.set("Content-Length", String(body.length));
    c.res = new Response(body, { status: res.status, headers });
  };
}
