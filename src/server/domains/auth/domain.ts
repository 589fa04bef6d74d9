/** The auth domain as the app mounts it: sign-in, sessions, tokens and accounts, and sign-in with GitHub and ORCID. */
import type { Context } from "hono";
import type { DomainMount } from "../../domain-mount.js";
import type { Logger } from "../../logger.js";
import { DEFAULT_SIGN_IN_FAILURES, type ServiceMode } from "../../settings.js";
import type { AccountStore } from "../../store/accounts/contract.js";
import type { AuditStore } from "../../store/audit/contract.js";
import type { OAuthSettings } from "./oauth-settings.js";
import { oauthRoutes } from "./oauth-routes.js";
import { authRoutes } from "./routes.js";
import { AuthService, DEFAULT_SESSION_TTL_MS } from "./service.js";
import { SignInThrottle } from "./sign-in-throttle.js";

export { AuthService, prepareAccounts } from "./service.js";

/** What the auth domain needs. */
export interface AuthDependencies {
  store: AccountStore & AuditStore;
  mode: ServiceMode;
  logger: Logger;
  /** Whether a request reached the service over HTTPS (cookies are then `Secure`). */
  https(c: Context): boolean;
  /** The client address, as the rate limiter sees it. */
  clientAddress(c: Context): string | null;
  sessionTtlMs?: number;
  signInFailures?: number;
  oauth?: OAuthSettings;
  oauthStateTtlMs?: number;
  publicUrl?: string;
  /** The normalised base path (`/` or `/prefix/`). */
  basePath: string;
}

/** The auth domain, and the sign-in service the authentication middleware checks credentials with. */
export function authDomain(deps: AuthDependencies): DomainMount & { auth: AuthService } {
  const auth = new AuthService(deps.store, { ttlMs: deps.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS });
  const throttle = new SignInThrottle({ maxFailures: deps.signInFailures ?? DEFAULT_SIGN_IN_FAILURES });
  return {
    auth,
    routers: [
      authRoutes({
        auth,
        mode: deps.mode,
        https: deps.https,
        clientAddress: deps.clientAddress,
        beforeSignIn: (username, address) => throttle.beforeSignIn(username, address),
        afterSignIn: (username, address, succeeded) => throttle.afterSignIn(username, address, succeeded),
      }),
      oauthRoutes({
        auth,
        store: deps.store,
        mode: deps.mode,
        settings: deps.oauth ?? {},
        publicUrl: deps.publicUrl,
        basePath: deps.basePath,
        https: deps.https,
        clientAddress: deps.clientAddress,
        logger: deps.logger,
        stateTtlMs: deps.oauthStateTtlMs,
      }),
    ],
  };
}
