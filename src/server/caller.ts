/**
 * Who is making a request. In personal mode (the default) there is one local user, who is an
 * administrator; team and hpc modes will resolve the caller from a session or API key (the auth issue).
 * Handlers ask here instead of reading headers, so that change touches one module.
 */
import type { Context } from "hono";

/** The acting user: an id that owns what they create, and whether they may see and change everything. */
export interface Caller {
  id: string;
  admin: boolean;
}

/** The personal-mode user. */
export const LOCAL_USER: Caller = Object.freeze({ id: "local", admin: true });

/** The caller of a request (set by the auth middleware when there is one). */
export function callerOf(c: Context): Caller {
  return (c.get("caller") as Caller | undefined) ?? LOCAL_USER;
}
