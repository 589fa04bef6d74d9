/**
 * Collaboration, free of HTTP: forks, share links with a public landing document and revocation, and
 * imports from `strand+https://<host>/share/<token>` (a share, resolved locally when the host is this
 * service), `oxo+https://<host>/share/<token>` (a share on an oxo-flow server, read in that product's shape)
 * and `toml+https://<location>` (a raw pipeline file). Remote fetches go through the SSRF-guarded
 * fetcher (HTTPS only, public addresses only, 10 s, 1 MiB, no redirects).
 */
import type { Caller } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import type { SavedPipeline, PipelineStore, StorageQuota } from "../../store/pipelines/contract.js";
import type { Share, ShareStore } from "../../store/shares/contract.js";
import { isStoreError } from "../../store/store-error.js";
import { createSaved, DEFAULT_QUOTA, readable, writable } from "../pipelines/service.js";
import type { Validation } from "../workflow/service.js";
import { InvalidImportUrl, isSameHost, parseImportUrl } from "./import-url.js";
import { fetchRemoteText, RemoteFetchError, type RemoteFetchOptions } from "./remote-fetch.js";
import { readShareLanding } from "./remote-share.js";

/** The largest and default lifetime of a share link, in days. */
export const SHARE_DAYS = { default: 30, max: 3650 };

/** Copies a pipeline the caller may read into a private pipeline they own. */
export async function forkPipeline(store: PipelineStore & ShareStore, caller: Caller, id: string, name?: string, quota: StorageQuota = DEFAULT_QUOTA): Promise<SavedPipeline> {
  const source = await readable(store, caller, id);
  return store.createPipeline({
    name: name ?? `${source.name} (fork)`,
    version: source.version,
    description: source.description,
    tags: source.tags,
    toml_content: source.toml_content,
    visibility: "private",
    owner: caller.id,
    forked_from: source.id,
    rules_count: source.rules_count,
  }, { quota });
}

/** A share link as the API shows it. */
export interface ShareLink {
  share_url: string;
  token: string;
  pipeline_id: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  state: Share["state"];
}

/** `strand+https://<public host>/share/<token>`. */
export function shareUrl(publicHost: string, token: string): string {
  return `strand+https://${publicHost}/share/${token}`;
}

export function shareLink(share: Share, publicHost: string): ShareLink {
  return { share_url: shareUrl(publicHost, share.token), ...share };
}

/**
 * Creates a share link for a pipeline the caller may change. A share link of a private pipeline is its
 * owner's explicit act: an administrator (who may read it) cannot publish someone else's private pipeline.
 */
export async function sharePipeline(store: PipelineStore & ShareStore, caller: Caller, id: string, expiresInDays: number | undefined, now = new Date()): Promise<Share> {
  const pipeline = await writable(store, caller, id);
  if (pipeline.visibility === "private" && pipeline.owner !== caller.id) {
    throw new ServiceError("ACCESS_DENIED", `pipeline ${id} is private to its owner; only its owner can share it`, { suggestion: "ask its owner to share it, or to make it visible to the workspace" });
  }
  const days = expiresInDays ?? SHARE_DAYS.default;
  return store.createShare({ pipeline_id: id, expires_at: new Date(now.getTime() + days * 86_400_000).toISOString() });
}

/** The share links of a pipeline the caller may change (its owner and administrators). */
export async function sharesOf(store: PipelineStore & ShareStore, caller: Caller, id: string): Promise<Share[]> {
  await writable(store, caller, id);
  return store.listShares(id);
}

/** Revokes a share link of a pipeline the caller may change. */
export async function revokeShare(store: PipelineStore & ShareStore, caller: Caller, id: string, token: string): Promise<Share> {
  await writable(store, caller, id);
  return store.revokeShare(id, token).catch((error: unknown) => {
    throw isStoreError(error, "NOT_FOUND") ? new ServiceError("NOT_FOUND", `pipeline ${id} has no share link ${token}`) : error;
  });
}

/** What anyone holding a live share token sees. */
export interface ShareLanding {
  token: string;
  expires_at: string | null;
  pipeline: { id: string; name: string; version: string | null; description: string | null; tags: string[]; rules_count: number; updated_at: string };
  toml_content: string;
}

/** The landing document of a share token; 404 for an unknown token, 410 EXPIRED for an expired or revoked one. */
export async function shareLanding(store: PipelineStore & ShareStore, token: string): Promise<ShareLanding> {
  const share = await store.getShare(token).catch((error: unknown) => {
    throw isStoreError(error, "NOT_FOUND") ? new ServiceError("NOT_FOUND", "no such share link", { suggestion: "ask the owner for a new link" }) : error;
  });
  if (share.state !== "active") {
    const when = share.state === "revoked" ? `was revoked on ${share.revoked_at}` : `expired on ${share.expires_at}`;
    throw new ServiceError("EXPIRED", `this share link ${when}`, { suggestion: "ask the owner for a new link" });
  }
  const pipeline = await store.getPipeline(share.pipeline_id);
  return {
    token: share.token,
    expires_at: share.expires_at,
    pipeline: { id: pipeline.id, name: pipeline.name, version: pipeline.version, description: pipeline.description, tags: pipeline.tags, rules_count: pipeline.rules_count, updated_at: pipeline.updated_at },
    toml_content: pipeline.toml_content,
  };
}

export interface ImportContext {
  /** The host names (with port when not 443) under which this service is reached. */
  ownHosts: string[];
  fetch: RemoteFetchOptions;
  /** The storage quota the imported pipeline must fit. */
  quota?: StorageQuota;
}

export interface ImportResult {
  pipeline: SavedPipeline;
  validation: Validation;
  source: { kind: "share" | "toml"; url: string; local: boolean };
}

function invalid(message: string, suggestion: string): ServiceError {
  return new ServiceError("INVALID_URL", message, { suggestion });
}

const SCHEMES = "use strand+https://<host>/share/<token> or oxo+https://<host>/share/<token> (a share link), or toml+https://<location> (a pipeline file)";

/** What to do about each kind of refused fetch. */
const FETCH_ADVICE: Partial<Record<RemoteFetchError["reason"], string>> = {
  dns: "check the host name in the URL",
  address: "imports fetch only from public internet addresses; copy the pipeline text and save it with POST /api/pipelines instead",
  redirect: "use the final address the link redirects to",
  status: "check that the URL points at the pipeline file (or share link) and that it is public",
  too_large: "pipelines over 1 MiB cannot be imported; save the text with POST /api/pipelines instead",
};

/** A failed fetch as the import answers it: refusals are INVALID_URL, remote trouble 502 UPSTREAM_ERROR. */
function fetchFailure(error: unknown): unknown {
  if (!(error instanceof RemoteFetchError)) return error;
  if (error.reason === "timeout" || error.reason === "network") return new ServiceError("UPSTREAM_ERROR", error.message, { suggestion: "check that the address is reachable from the service, then try again" });
  return invalid(error.message, FETCH_ADVICE[error.reason] ?? SCHEMES);
}

/** Fetches remote text (a pipeline file). */
async function fetchText(url: string, options: RemoteFetchOptions): Promise<string> {
  try {
    return (await fetchRemoteText(url, options)).text;
  } catch (error) {
    throw fetchFailure(error);
  }
}

/** Fetches a remote share's landing document; the remote's 404 and 410 answer as a local share's would. */
async function fetchShareDocument(url: string, host: string, options: RemoteFetchOptions): Promise<string> {
  try {
    return (await fetchRemoteText(url, options)).text;
  } catch (error) {
    if (error instanceof RemoteFetchError && error.status === 404 && error.reason === "status") {
      throw new ServiceError("NOT_FOUND", `${host} has no such share link (${url} answered 404)`, { suggestion: "check the link, or ask its owner for a new one" });
    }
    if (error instanceof RemoteFetchError && error.status === 410 && error.reason === "status") {
      throw new ServiceError("EXPIRED", `this share link expired or was revoked on ${host} (${url} answered 410)`, { suggestion: "ask the owner for a new link" });
    }
    throw fetchFailure(error);
  }
}

/** Imports a pipeline from a URL as a private pipeline owned by the caller. */
export async function importPipeline(store: PipelineStore & ShareStore, caller: Caller, sent: string, context: ImportContext, name?: string): Promise<ImportResult> {
  const raw = sent.trim();
  let source;
  try {
    source = parseImportUrl(raw);
  } catch (error) {
    if (error instanceof InvalidImportUrl) throw invalid(error.message, error.suggestion);
    throw error;
  }
  let toml: string;
  let forkedFrom: string | null = null;
  let sourceName: string | undefined;
  let fallback: { version: string | null; description: string | null } | undefined;
  const local = source.kind === "share" && isSameHost(source.host, context.ownHosts);
  if (source.kind === "share" && local) {
    const landing = await shareLanding(store, source.token);
    toml = landing.toml_content;
    forkedFrom = landing.pipeline.id;
    sourceName = landing.pipeline.name;
  } else if (source.kind === "share") {
    const landing = readShareLanding(source.server, await fetchShareDocument(source.fetchUrl, source.host, context.fetch), source.fetchUrl);
    toml = landing.toml_content;
    sourceName = landing.name;
    fallback = { version: landing.version, description: landing.description };
  } else {
    toml = await fetchText(source.fetchUrl, context.fetch);
  }
  const { pipeline, validation } = await createSaved(store, caller, {
    toml_content: toml,
    name: name ?? (sourceName ? `${sourceName} (imported)` : undefined),
    forked_from: forkedFrom,
    fallback,
    source: source.kind === "toml" ? `the file at ${source.fetchUrl.split(/[?#]/)[0]}` : `the pipeline shared at ${raw}`,
  }, context.quota);
  return { pipeline, validation, source: { kind: source.kind, url: raw, local } };
}
