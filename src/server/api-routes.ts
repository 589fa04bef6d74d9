/**
 * The API's routes as the router knows them, for the two things that must agree with the router exactly:
 * one spelling per API path (`canonicalApiPath`, given to Hono as its `getPath`, so the router itself
 * matches the canonical spelling), and the operation of a request (`operationOf`), read from the route the
 * router matched for it — never from a second matcher over the path, which could read another spelling
 * than the router did (`GET /api/%75sers` was once `listUsers` to the router and nothing to the policy).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { matchedRoutes } from "hono/route";

/** An operation of the OpenAPI document: its method, its path as the router has it (`:id`), its id. */
export interface ApiRoute {
  method: string;
  /** The routing path (`/api/runs/:id`). */
  path: string;
  operationId: string;
}

/** A route's path split into segments: static text, or null for a parameter. */
interface Template {
  method: string;
  segments: (string | null)[];
}

/** Characters that mean the same percent-encoded or not (RFC 3986 §2.3): decoded in the canonical spelling. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** Decodes the escapes of unreserved characters and upper-cases the hex digits of the others. */
function decodeUnreserved(segment: string): string {
  if (!segment.includes("%")) return segment;
  return segment.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const character = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(character) ? character : `%${hex.toUpperCase()}`;
  });
}

/**
 * The segments of an API path in the one spelling the router knows: an encoded slash is a slash, escapes of
 * letters and digits are decoded, empty segments (double and trailing slashes) and `.` go, `..` removes the
 * segment before it. Undefined when the path is not under `/api` (the app's own pages keep their spelling).
 */
export function apiSegments(path: string): string[] | undefined {
  const segments: string[] = [];
  for (const part of path.split(/\/|%2[Ff]/)) {
    const segment = decodeUnreserved(part);
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments[0]?.toLowerCase() === "api" ? segments : undefined;
}

/** Hono's reading of a path: escapes decoded as by decodeURI, except `%25`, which parameters decode later. */
function decodedLikeHono(path: string): string {
  if (!path.includes("%")) return path;
  try {
    return decodeURI(path.replace(/%25/g, "%2525"));
  } catch {
    // A malformed escape: routed as it is (no route matches it), then refused by the URL check.
    return path;
  }
}

/** The path of a request URL (the part before `?` and `#`), as sent. */
function rawPathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf(":") + 3);
  if (start < 0) return "/";
  const end = url.slice(start).search(/[?#]/);
  return end < 0 ? url.slice(start) : url.slice(start, start + end);
}

/** The operations of the app and the route each one is, read lazily once every router is registered. */
export class ApiRoutes {
  private byRoute: Map<string, ApiRoute> | undefined;
  private templates: Map<number, Template[]> | undefined;

  constructor(private readonly app: () => OpenAPIHono) {}

  /** Every operation of the OpenAPI document, with the routing path the router matches. */
  operations(): ApiRoute[] {
    const routes: ApiRoute[] = [];
    for (const definition of this.app().openAPIRegistry.definitions) {
      if (definition.type !== "route") continue;
      const route = definition.route as { method: string; path: string; operationId?: string };
      if (!route.operationId) continue;
      // The same conversion @hono/zod-openapi makes when it registers the route with the router.
      routes.push({ method: route.method.toUpperCase(), path: route.path.replaceAll(/\/{(.+?)}/g, "/:$1"), operationId: route.operationId });
    }
    return routes;
  }

  /** The operation whose handler the router runs for this request, or undefined (no handler: a 404 or 405 answers). */
  operationOf(c: Context): { route: { method: string; path: string }; operation: ApiRoute | undefined } | undefined {
    // Middleware is registered for every method ("ALL"); the first route of a real method is the one that answers.
    const route = matchedRoutes(c).find((candidate) => candidate.method !== "ALL");
    if (!route) return undefined;
    this.byRoute ??= new Map(this.operations().map((operation) => [`${operation.method} ${operation.path}`, operation]));
    return { route: { method: route.method, path: route.path }, operation: this.byRoute.get(`${route.method} ${route.path}`) };
  }

  /**
   * The path the router matches for a request (Hono's `getPath`): an API path in its canonical spelling
   * (see apiSegments), its static segments in the case the route is written in (as Express routes match
   * without regard to case), then decoded as Hono decodes paths. Other paths as Hono reads them.
   */
  routingPath(request: Request): string {
    const raw = rawPathOf(request.url);
    const segments = apiSegments(raw);
    if (!segments) return decodedLikeHono(raw);
    return decodedLikeHono(`/${this.inRouteCase(segments, request.method).join("/")}`);
  }

  /**
   * The segments with their static parts in the case of the route they name: a route of the request's
   * method that takes the spelling as it is wins (an id that reads like a path word stays an id); then one of
   * that method that takes it without regard to case; then the same for other methods (their answer is 405,
   * as for the plain spelling).
   */
  private inRouteCase(segments: string[], method: string): string[] {
    this.templates ??= this.compileTemplates();
    const candidates = this.templates.get(segments.length) ?? [];
    const wanted = method === "HEAD" ? "GET" : method;
    const fits = (template: Template, exact: boolean) =>
      template.segments.every((part, index) => (part === null ? segments[index] !== "" : exact ? part === segments[index] : part.toLowerCase() === segments[index]!.toLowerCase()));
    const mostStatic = (list: Template[]) => list.sort((a, b) => staticCount(b) - staticCount(a))[0];
    for (const sameMethod of [true, false]) {
      const pool = candidates.filter((template) => (template.method === wanted) === sameMethod);
      if (pool.some((template) => fits(template, true))) return segments;
      const folded = mostStatic(pool.filter((template) => fits(template, false)));
      if (folded) return segments.map((segment, index) => folded.segments[index] ?? segment);
    }
    return segments;
  }

  private compileTemplates(): Map<number, Template[]> {
    const templates = new Map<number, Template[]>();
    for (const operation of this.operations()) {
      const segments = operation.path
        .split("/")
        .slice(1)
        .map((part) => (part.startsWith(":") ? null : part));
      const list = templates.get(segments.length) ?? [];
      list.push({ method: operation.method, segments });
      templates.set(segments.length, list);
    }
    return templates;
  }
}

function staticCount(template: Template): number {
  return template.segments.filter((segment) => segment !== null).length;
}
