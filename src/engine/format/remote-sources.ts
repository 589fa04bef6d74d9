/**
 * Pipeline sources fetched over the network: URL includes and `repo` modules. On a person's own machine
 * they are fetched wherever the pipeline says. A shared service's engine (`STRAND_REMOTE_SOURCES=public`,
 * set by the service for its runs) fetches them from public addresses only — an include naming the
 * loopback, the private network or cloud metadata (169.254.169.254) is refused — with the same guard as
 * webhooks and imports: the host resolved once, every address vetted, the connection pinned to them, no
 * redirect followed. A `repo` is vetted by its host before git runs, and git is then held to the vetted
 * addresses (`http.curloptResolve`), follows no redirect and reads no configuration a job could have written.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { EngineError } from "../findings.js";
import { AddressRefusal, pinnedLookup, vetHost } from "../public-address.js";

/** Whether this engine fetches remote sources from public addresses only. */
export function publicSourcesOnly(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.STRAND_REMOTE_SOURCES === "public";
}

/** Why a host may not be fetched from, for a message. */
function refusal(what: string, error: AddressRefusal): EngineError {
  return new EngineError("INCLUDE_ERROR", `${what} is not fetched: ${error.message}`, {
    suggestion: error.reason === "address" ? "a shared service fetches includes and modules from public addresses only: publish the file, or copy it next to the pipeline and include it by path" : "check the host name",
  });
}

/** The text at `url` (at most `maxBytes`), refusing non-public hosts when `publicOnly`; redirects are never followed. */
export async function fetchSourceText(url: string, options: { publicOnly: boolean; maxBytes: number; timeoutMs: number }): Promise<string> {
  const parsed = new URL(url);
  let addresses;
  try {
    addresses = await vetHost(parsed.hostname, { allowPrivate: !options.publicOnly });
  } catch (error) {
    if (error instanceof AddressRefusal) throw refusal(`include ${url}`, error);
    throw error;
  }
  const send = parsed.protocol === "https:" ? httpsRequest : httpRequest;
  const signal = AbortSignal.timeout(options.timeoutMs);
  return new Promise<string>((resolve, reject) => {
    const request = send(parsed, { method: "GET", lookup: pinnedLookup(addresses), agent: false, signal }, (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        response.resume();
        reject(new EngineError("INCLUDE_ERROR", `cannot fetch include ${url}: HTTP ${status}${status >= 300 && status < 400 ? " (a redirect, which is never followed: include the final address)" : ""}`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) {
          response.destroy();
          reject(new EngineError("LIMIT_ERROR", `include ${url} is larger than ${Math.round(options.maxBytes / 1024 / 1024)} MiB`));
          return;
        }
        chunks.push(chunk);
      });
      response.on("end", () => resolve(new TextDecoder().decode(Buffer.concat(chunks))));
      response.on("error", (error) => reject(new EngineError("INCLUDE_ERROR", `cannot fetch include ${url}: ${error.message}`)));
    });
    request.on("error", (error) => reject(new EngineError("INCLUDE_ERROR", `cannot fetch include ${url}: ${error.message}`)));
    request.end();
  });
}

/** The host of a git repository address (`https://h/x.git`, `ssh://u@h/x`, `git://h/x`, `u@h:x.git`), or undefined for a local one. */
export function repositoryHost(repo: string): string | undefined {
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.exec(repo) ? repo : undefined;
  if (url) {
    if (/^file:/i.test(url)) return undefined;
    try {
      return new URL(url).hostname || undefined;
    } catch {
      return undefined;
    }
  }
  // scp-like: [user@]host:path (a colon before any slash)
  const scp = /^(?:[^@/]+@)?([^:/]+):/.exec(repo);
  return scp?.[1];
}

/** How git may reach a vetted repository: `curl --resolve` entries pinning its host to the addresses vetted. */
export interface RepositoryPin {
  resolve: string[];
}

/**
 * Refuses a `repo` on a non-public host when `publicOnly` (local repositories are what the sandbox shows),
 * and any address other than https, http or a local path: ssh reads `~/.ssh/config`, which in a service's
 * workspace a job could have written (a `ProxyCommand` would run in the engine). Answers the pin for git.
 */
export async function vetRepository(repo: string, publicOnly: boolean): Promise<RepositoryPin | undefined> {
  if (!publicOnly) return undefined;
  const host = repositoryHost(repo);
  if (host === undefined) return undefined;
  const url = /^https?:\/\//i.test(repo) ? new URL(repo) : undefined;
  if (!url) {
    throw new EngineError("INCLUDE_ERROR", `module ${repo} is not fetched: a shared service clones modules over https (or http) only`, {
      suggestion: `give the repository's https address (https://${host}/…), or copy the module next to the pipeline and include it by path`,
    });
  }
  try {
    const addresses = await vetHost(host);
    const port = url.port || (url.protocol === "https:" ? "443" : "80");
    const listed = addresses.map((entry) => (entry.family === 6 ? `[${entry.address}]` : entry.address)).join(",");
    return { resolve: [`${url.hostname.replace(/^\[(.*)\]$/, "$1")}:${port}:${listed}`] };
  } catch (error) {
    if (error instanceof AddressRefusal) throw refusal(`module ${repo}`, error);
    throw error;
  }
}
