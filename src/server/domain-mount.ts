/**
 * What a domain gives the app when it is made: its routers, mounted at the root in order. Each domain's
 * `domain.ts` exports one constructor taking the few dependencies it needs and returning a DomainMount
 * (with whatever it offers the rest of the app beside it); `app.ts` is the middleware and a list of mounts.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";

/** A domain as the app mounts it. */
export interface DomainMount {
  /** The domain's routers, mounted at `/` in this order. */
  readonly routers: readonly OpenAPIHono[];
}
