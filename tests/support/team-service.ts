/**
 * A team-mode service for the security tests, with one account per role the tests speak as (an
 * administrator, a user who owns the fixtures, another user and a viewer), each signed in once, and a
 * request helper that sends a caller's session token. The store is a fresh SQLite one unless given.
 */
import { request as httpRequest } from "node:http";
import type { AppOptions } from "../../src/server/app.js";
import { AuthService } from "../../src/server/domains/auth/service.js";
import type { Store } from "../../src/server/store/store.js";
import { startTestService, type TestService } from "./service-harness.js";

/** Who makes a request: nobody, or one of the four accounts. */
export type Who = "anonymous" | "viewer" | "user" | "other" | "admin";
export type SignedIn = Exclude<Who, "anonymous">;

/** The callers in the order the tests try them. */
export const CALLERS: readonly Who[] = ["anonymous", "viewer", "user", "other", "admin"];

/** The accounts, by what they are to the tests (`user` owns the fixtures; `other` is another user). */
export const ACCOUNTS: Readonly<Record<SignedIn, { username: string; password: string; role: "admin" | "user" | "viewer" }>> = {
  admin: { username: "ada", password: "ada-admin-correct-horse", role: "admin" },
  user: { username: "bo", password: "bo-user-battery-staple", role: "user" },
  other: { username: "cy", password: "cy-user-another-secret", role: "user" },
  viewer: { username: "vi", password: "vi-viewer-reads-only", role: "viewer" },
};

/** A pipeline whose one job ends at once. */
export const TRIVIAL_PIPELINE = '[workflow]\nname = "trivial"\n\n[[rules]]\nname = "hi"\noutput = ["hi.txt"]\nshell = "echo hi > {output}"\n';

/** A named copy of the trivial pipeline. */
export function trivialPipeline(name: string): string {
  return TRIVIAL_PIPELINE.replace('name = "trivial"', `name = "${name}"`);
}

export interface Answer {
  status: number;
  /** The parsed JSON body, or the text when it is not JSON. */
  body: Record<string, unknown> & { code?: string; message?: string };
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  /** Send this token instead of the caller's session token. */
  token?: string;
  headers?: Record<string, string>;
  /**
   * Send the path exactly as written (`/api/./users`, `/api//users`, `/api%2Fusers`): fetch would normalise
   * it on the client, so the request goes out through node:http instead.
   */
  raw?: true;
}

export interface TeamService {
  service: TestService;
  url: string;
  /** Each account's user id. */
  ids: Record<SignedIn, string>;
  /** Each account's session token, made at start. */
  tokens: Record<SignedIn, string>;
  /** A request as `who` (anonymous sends no credentials). */
  call(who: Who, method: string, path: string, options?: RequestOptions): Promise<Answer>;
  /** Signs `who` in again and answers the new session token. */
  signIn(who: SignedIn): Promise<string>;
  close(): Promise<void>;
}

/** Sends one request; an event stream's body is not read (it never ends). */
export async function send(url: string, method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.raw) return sendRaw(url, method, path, headers, options.body);
  const response = await fetch(`${url}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), redirect: "manual" });
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    await response.body?.cancel();
    return { status: response.status, body: {}, text: "", headers: response.headers };
  }
  return answerOf(response.status, response.headers, await response.text());
}

/** A parsed answer from its status, headers and text. */
function answerOf(status: number, headers: Headers, text: string): Answer {
  let body: Answer["body"];
  try {
    body = text ? (JSON.parse(text) as Answer["body"]) : {};
  } catch {
    body = {};
  }
  return { status, body, text, headers };
}

/** One request with its path sent as written, over node:http; an event stream is closed once its head arrives. */
function sendRaw(url: string, method: string, path: string, headers: Record<string, string>, body: unknown): Promise<Answer> {
  const { hostname, port } = new URL(url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<Answer>((resolve, reject) => {
    const request = httpRequest({ hostname, port, method, path, headers: payload === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(payload)) } }, (response) => {
      const answerHeaders = new Headers();
      for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(", ") : value);
      if (answerHeaders.get("content-type")?.startsWith("text/event-stream")) {
        response.destroy();
        resolve({ status: response.statusCode ?? 0, body: {}, text: "", headers: answerHeaders });
        return;
      }
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve(answerOf(response.statusCode ?? 0, answerHeaders, Buffer.concat(chunks).toString("utf8"))));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(payload);
  });
}

/** Starts a team-mode service (rate limit off: the tests send many requests) with the four accounts signed in. */
export async function startTeamService(options: Partial<AppOptions> & { store?: Store } = {}): Promise<TeamService> {
  const service = await startTestService({ mode: "team", rateLimit: 0, ...options });
  const auth = new AuthService(service.store);
  const ids = {} as Record<SignedIn, string>;
  const tokens = {} as Record<SignedIn, string>;
  const signIn = async (who: SignedIn): Promise<string> => {
    const { username, password } = ACCOUNTS[who];
    const answer = await send(service.url, "POST", "/api/auth/login", { body: { username, password } });
    if (answer.status !== 200) throw new Error(`${username} cannot sign in: ${answer.status} ${answer.text}`);
    return answer.body.token as string;
  };
  for (const who of Object.keys(ACCOUNTS) as SignedIn[]) {
    const { username, password, role } = ACCOUNTS[who];
    ids[who] = (await auth.setAccount(username, password, role)).user.id;
    tokens[who] = await signIn(who);
  }
  return {
    service,
    url: service.url,
    ids,
    tokens,
    call: (who, method, path, requestOptions = {}) => send(service.url, method, path, { ...requestOptions, token: requestOptions.token ?? (who === "anonymous" ? undefined : tokens[who]) }),
    signIn,
    close: async () => {
      // Runs the tests started must end before their folders go.
      const page = await service.store.listRuns({ limit: 500 });
      for (const run of page.items) {
        if (run.status === "queued" || run.status === "running" || run.status === "paused") await send(service.url, "POST", `/api/runs/${run.id}/cancel`, { token: tokens.admin });
      }
      for (const run of page.items) await service.supervisor.whenFinished(run.id);
      await service.close();
    },
  };
}
