/**
 * A local OAuth2 identity provider for tests: a real HTTP server on 127.0.0.1 that speaks the authorization
 * code flow with PKCE (S256) the way GitHub or ORCID do, so the service's sign-in is tested end to end
 * through `SERVICE_OAUTH_<PROVIDER>_BASE_URL` without reaching the internet.
 *
 * - GitHub-shaped: `GET /login/oauth/authorize`, `POST /login/oauth/access_token` (client credentials by
 *   HTTP Basic or in the form; refusals answered with 200 and an `error` field, as GitHub does), and
 *   `GET /user` and `GET /api/v3/user` (GitHub Enterprise's API path) → `{id, login, name}`.
 * - ORCID-shaped: `GET /oauth/authorize`, `POST /oauth/token` (client id and secret in the form body;
 *   refusals 400 `invalid_grant`; the answer carries `orcid` and `name`).
 *
 * The authorize endpoint signs in whoever the test chose with `signInAs` (or refuses with `denyNext`),
 * checks the client id and the registered redirect URI, and redirects back with `code` and `state`. The
 * token endpoint checks the client secret, that the code is unused and unexpired, the redirect URI, and the
 * PKCE `code_verifier` against the S256 challenge. Every request is recorded for assertions.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/** The account the next authorization signs in as. */
export interface ProviderAccount {
  /** GitHub's numeric id, or the ORCID iD. */
  id: number | string;
  /** GitHub's login, or the name on the ORCID record (null: private). */
  login: string | null;
}

/** One request the provider received. */
export interface ProviderRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
  authorization: string | undefined;
}

export interface IdentityProvider {
  /** `http://127.0.0.1:<port>`: what `SERVICE_OAUTH_<PROVIDER>_BASE_URL` is set to. */
  url: string;
  clientId: string;
  clientSecret: string;
  requests: ProviderRequest[];
  /** Who the next authorizations sign in as. */
  signInAs(account: ProviderAccount): void;
  /** The next authorization is denied by the user (`error=access_denied`). */
  denyNext(): void;
  close(): Promise<void>;
}

interface IssuedCode {
  challenge: string;
  method: string;
  redirectUri: string;
  account: ProviderAccount;
  expires: number;
  used: boolean;
}

/** base64url of SHA-256, the S256 transformation of RFC 7636. */
function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "Content-Type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

async function readForm(request: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
}

/** Starts a GitHub- or ORCID-shaped identity provider that accepts only `redirectUri` as its callback. */
export async function startIdentityProvider(shape: "github" | "orcid", redirectUri: string): Promise<IdentityProvider> {
  const clientId = `${shape}-client-${randomBytes(4).toString("hex")}`;
  const clientSecret = `${shape}-secret-${randomBytes(16).toString("hex")}`;
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, ProviderAccount>();
  const requests: ProviderRequest[] = [];
  let account: ProviderAccount = shape === "github" ? { id: 583231, login: "octocat" } : { id: "0000-0002-1825-0097", login: "Josiah Carberry" };
  let deny = false;
  const paths = shape === "github" ? { authorize: "/login/oauth/authorize", token: "/login/oauth/access_token" } : { authorize: "/oauth/authorize", token: "/oauth/token" };

  /** GitHub answers token refusals with 200; ORCID (and RFC 6749) with 400. */
  const refuseToken = (response: ServerResponse, error: string, description: string) => send(response, shape === "github" ? 200 : 400, { error, error_description: description });

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", "http://idp.invalid");
      const form = request.method === "POST" ? await readForm(request) : {};
      requests.push({ method: request.method ?? "", path: url.pathname, query: Object.fromEntries(url.searchParams), form, authorization: request.headers.authorization });

      if (request.method === "GET" && url.pathname === paths.authorize) {
        const query = url.searchParams;
        if (query.get("client_id") !== clientId) return send(response, 400, { error: "invalid_client" });
        // A provider sends the browser only to the registered callback: never to a URI the request names.
        if (query.get("redirect_uri") !== redirectUri) return send(response, 400, { error: "redirect_uri_mismatch" });
        if (query.get("response_type") !== "code") return send(response, 400, { error: "unsupported_response_type" });
        const back = new URL(redirectUri);
        back.searchParams.set("state", query.get("state") ?? "");
        if (deny) {
          deny = false;
          back.searchParams.set("error", "access_denied");
          back.searchParams.set("error_description", "The user has denied your application access.");
        } else {
          const code = randomBytes(10).toString("hex");
          codes.set(code, { challenge: query.get("code_challenge") ?? "", method: query.get("code_challenge_method") ?? "", redirectUri, account, expires: Date.now() + 600_000, used: false });
          back.searchParams.set("code", code);
        }
        response.writeHead(302, { Location: back.href });
        return response.end();
      }

      if (request.method === "POST" && url.pathname === paths.token) {
        let id = form.client_id;
        let secret = form.client_secret;
        const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? "");
        if (basic && shape === "github") [id, secret] = Buffer.from(basic[1]!, "base64").toString("utf8").split(":") as [string, string];
        if (id !== clientId || secret !== clientSecret) return send(response, 401, { error: "invalid_client", error_description: "Client authentication failed." });
        if (form.grant_type !== "authorization_code") return send(response, 400, { error: "unsupported_grant_type" });
        const issued = codes.get(form.code ?? "");
        if (!issued || issued.used || issued.expires < Date.now()) return refuseToken(response, "bad_verification_code", "The code passed is incorrect or expired.");
        issued.used = true;
        if (form.redirect_uri !== issued.redirectUri) return refuseToken(response, "redirect_uri_mismatch", "The redirect_uri does not match the one of the authorization.");
        if (issued.method !== "S256" || !form.code_verifier || s256(form.code_verifier) !== issued.challenge) return refuseToken(response, "invalid_grant", "The code_verifier does not match the code_challenge.");
        const accessToken = randomBytes(20).toString("hex");
        tokens.set(accessToken, issued.account);
        if (shape === "github") return send(response, 200, { access_token: accessToken, token_type: "bearer", scope: "" });
        return send(response, 200, { access_token: accessToken, token_type: "bearer", refresh_token: randomBytes(20).toString("hex"), expires_in: 631138518, scope: "/authenticate", name: issued.account.login, orcid: issued.account.id });
      }

      if (shape === "github" && request.method === "GET" && (url.pathname === "/user" || url.pathname === "/api/v3/user")) {
        const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1];
        const owner = bearer ? tokens.get(bearer) : undefined;
        if (!owner) return send(response, 401, { message: "Bad credentials" });
        return send(response, 200, { id: owner.id, login: owner.login, name: null, type: "User" });
      }
      send(response, 404, { error: "not_found" });
    })().catch((error: unknown) => send(response, 500, { error: String(error) }));
  });
  const port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)));
  return {
    url: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    requests,
    signInAs: (next) => {
      account = next;
    },
    denyNext: () => {
      deny = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
