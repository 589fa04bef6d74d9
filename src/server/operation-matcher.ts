/**
 * Which API operation a request is for, from the routes registered with `@hono/zod-openapi` (the same
 * definitions the OpenAPI document is generated from), so that middleware can apply per-operation policy
 * before the request reaches its handler. Static path segments win over parameters, as in Hono's router.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";

interface CompiledOperation {
  method: string;
  segments: (string | null)[];
  /** Static segments count, to prefer `/api/pipelines/search` over `/api/pipelines/{id}`. */
  staticCount: number;
  operationId: string;
}

/** A route definition as the registry keeps it. */
interface RegisteredRoute {
  method: string;
  path: string;
  operationId?: string;
}

/** Finds the operation of a request; built lazily, once every router is registered. */
export class OperationMatcher {
  private compiled: Map<number, CompiledOperation[]> | undefined;

  constructor(private readonly app: OpenAPIHono) {}

  /** Every registered operation as `{method, path, operationId}`. */
  operations(): RegisteredRoute[] {
    const routes: RegisteredRoute[] = [];
    for (const definition of this.app.openAPIRegistry.definitions) {
      if (definition.type !== "route") continue;
      const route = definition.route as RegisteredRoute;
      routes.push({ method: route.method.toUpperCase(), path: route.path, operationId: route.operationId });
    }
    return routes;
  }

  private compile(): Map<number, CompiledOperation[]> {
    const bySegmentCount = new Map<number, CompiledOperation[]>();
    for (const route of this.operations()) {
      if (!route.operationId) continue;
      const segments = route.path.split("/").map((segment) => (/^\{.+\}$/.test(segment) ? null : segment));
      const entry: CompiledOperation = { method: route.method, segments, staticCount: segments.filter((segment) => segment !== null).length, operationId: route.operationId };
      const list = bySegmentCount.get(segments.length) ?? [];
      list.push(entry);
      bySegmentCount.set(segments.length, list);
    }
    for (const list of bySegmentCount.values()) list.sort((a, b) => b.staticCount - a.staticCount);
    return bySegmentCount;
  }

  /** The operationId of `method path`, or undefined for a path or method no operation has. */
  match(method: string, path: string): string | undefined {
    this.compiled ??= this.compile();
    const wanted = method === "HEAD" ? "GET" : method;
    const segments = path.split("/");
    for (const candidate of this.compiled.get(segments.length) ?? []) {
      if (candidate.method !== wanted) continue;
      if (candidate.segments.every((segment, index) => segment === null ? segments[index] !== "" : segment === segments[index])) return candidate.operationId;
    }
    return undefined;
  }
}
