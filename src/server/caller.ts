/**
 * Who is making a request. In personal mode there is one local user, who is an administrator; in team and
 * hpc modes the authentication middleware resolves the caller from a session cookie, a session token or a
 * personal access token, and a request without credentials is anonymous. Handlers ask here instead of
 * reading headers, so how callers are recognised is one module's business.
 */
import type { Context } from "hono";
import type { UserRole } from "./store/accounts/contract.js";

/** The acting user: an id that owns what they create, their role, and whether they may see and change everything. */
export interface Caller {
  id: string;
  username: string;
  /** `anonymous` for a request without credentials (public routes only). */
  role: UserRole | "anonymous";
  admin: boolean;
}

/** The personal-mode user. */
export const LOCAL_USER: Caller = Object.freeze({ id: "local", username: "local", role: "admin", admin: true });

/** A team-mode request without credentials. */
export const ANONYMOUS: Caller = Object.freeze({ id: "", username: "", role: "anonymous", admin: false });

/** The caller of a request, as the authentication middleware set it; anonymous when it did not (fail closed). */
export function callerOf(c: Context): Caller {
  return (c.get("caller") as Caller | undefined) ?? ANONYMOUS;
}

/** Whether the caller may create and change things (users and administrators; viewers only read). */
export function mayWrite(caller: Caller): boolean {
  return caller.role === "admin" || caller.role === "user";
}

/** Makes `caller` the caller of the rest of the request (authentication, and a sign-in once it succeeded). */
export function setCaller(c: Context, caller: Caller): void {
  c.set("caller" as never, caller as never);
}
