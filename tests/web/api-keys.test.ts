/**
 * The browser app's query keys and query options (src/web/api): each resource's keys nest so that one
 * invalidation reaches exactly what a change makes stale (a pipeline's revisions and shares under the
 * pipeline, a run's views under the run, the lists apart from the details), and the options carry the
 * data policies the pages rely on (when a query is asked, how often it is refreshed). Checked against a real
 * TanStack QueryClient, never a stand-in.
 */
import "./browser-address.js";
import { QueryClient, type QueryKey } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { accountKeys, currentUserQuery, userKeys } from "../../src/web/api/account.js";
import { aiKeys } from "../../src/web/api/ai.js";
import { auditKeys, auditQuery } from "../../src/web/api/audit.js";
import { chatKeys } from "../../src/web/api/chat.js";
import { dataKeys } from "../../src/web/api/data.js";
import { healthKeys } from "../../src/web/api/health.js";
import { revisionDiffQuery, revisionQuery, semanticChanges } from "../../src/web/api/pipeline-revisions.js";
import { shareKeys, sharesQuery } from "../../src/web/api/pipeline-shares.js";
import { editedPipelineQuery, parsedPipelineQuery, pipelineKeys, pipelineQuery, pipelineSearchQuery, pipelinesQuery } from "../../src/web/api/pipelines.js";
import { fileUrl, invalidateRun, invalidateRunProgress, jobPageQuery, runEventsUrl, runKeys, runsQuery, timelineQuery } from "../../src/web/api/runs.js";
import { templateKeys, templatesQuery } from "../../src/web/api/templates.js";
import { checkKeys, checkQuery, validationQuery } from "../../src/web/api/workflow-tooling.js";
import { APP_BASE_PATH, APP_ORIGIN } from "./browser-address.js";

/** Whether `prefix` starts `key`: what TanStack's invalidation by `queryKey` matches. */
function startsWith(key: QueryKey, prefix: QueryKey): boolean {
  return prefix.every((part, index) => JSON.stringify(part) === JSON.stringify(key[index]));
}

/** The keys of a client's queries that are stale now. */
function staleKeys(client: QueryClient): string[] {
  return client
    .getQueryCache()
    .getAll()
    .filter((query) => query.isStale())
    .map((query) => JSON.stringify(query.queryKey))
    .sort();
}

/** A client holding fresh data under each key (no fetching: the queries have no observer). */
function clientWith(keys: QueryKey[]): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  for (const key of keys) client.setQueryData(key, { cached: true });
  return client;
}

describe("the pipelines' keys", () => {
  const id = "p-1";
  it("put everything about one pipeline under its detail, and the list and the search apart", () => {
    for (const below of [pipelineKeys.revisions(id), pipelineKeys.revision(id, 2), pipelineKeys.diff(id, 1, 2), pipelineKeys.shares(id), pipelineKeys.parsed(id, "t")]) expect(startsWith(below, pipelineKeys.detail(id))).toBe(true);
    expect(startsWith(pipelineKeys.list(), pipelineKeys.lists())).toBe(true);
    expect(startsWith(pipelineKeys.search("align"), pipelineKeys.lists())).toBe(true);
    expect(startsWith(pipelineKeys.detail(id), pipelineKeys.lists())).toBe(false);
    expect(startsWith(pipelineKeys.detail("p-2"), pipelineKeys.detail(id))).toBe(false);
    for (const key of [pipelineKeys.lists(), pipelineKeys.details()]) expect(startsWith(key, pipelineKeys.all)).toBe(true);
  });

  it("let a saved pipeline's list refresh without refetching the pipeline the editor holds", async () => {
    const client = clientWith([pipelineKeys.list(), pipelineKeys.search("align"), pipelineKeys.detail(id), pipelineKeys.revisions(id)]);
    await client.invalidateQueries({ queryKey: pipelineKeys.lists() });
    expect(staleKeys(client)).toEqual([JSON.stringify(pipelineKeys.list()), JSON.stringify(pipelineKeys.search("align"))].sort());
  });

  it("let a rollback refresh the pipeline with its revisions and shares, and no other pipeline", async () => {
    const client = clientWith([pipelineKeys.detail(id), pipelineKeys.revisions(id), pipelineKeys.shares(id), pipelineKeys.detail("p-2"), pipelineKeys.list()]);
    await client.invalidateQueries({ queryKey: pipelineKeys.detail(id) });
    expect(staleKeys(client)).toEqual([pipelineKeys.detail(id), pipelineKeys.revisions(id), pipelineKeys.shares(id)].map((key) => JSON.stringify(key)).sort());
  });

  it("build their query options from the keys, with the policies the pages rely on", () => {
    expect(pipelinesQuery().queryKey).toEqual(pipelineKeys.list());
    expect(pipelineQuery(id).queryKey).toEqual(pipelineKeys.detail(id));
    // The editor's copy is never refetched by itself; the same key, so a save's answer reaches both.
    expect(editedPipelineQuery(id)).toMatchObject({ queryKey: pipelineKeys.detail(id), staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false });
    // The text search is asked from two characters on.
    expect(pipelineSearchQuery("a").enabled).toBe(false);
    expect(pipelineSearchQuery("al").enabled).toBe(true);
    expect(parsedPipelineQuery(undefined).enabled).toBe(false);
    expect(parsedPipelineQuery({ id, updated_at: "2026-01-01T00:00:00Z", toml_content: "" })).toMatchObject({ enabled: true, queryKey: pipelineKeys.parsed(id, "2026-01-01T00:00:00Z") });
    expect(revisionQuery(id, 3)).toMatchObject({ queryKey: pipelineKeys.revision(id, 3), staleTime: Infinity });
    expect(revisionDiffQuery(id, 1, 2, { before: "a" }).enabled).toBe(false);
    expect(revisionDiffQuery(id, 1, 2, { before: "a", after: "b" }).enabled).toBe(true);
    expect(sharesQuery(id, false)).toMatchObject({ queryKey: pipelineKeys.shares(id), enabled: false });
    expect(shareKeys.landing("tok")).toEqual(["share", "tok"]);
  });

  it("read a diff's semantic changes, none when it has none", () => {
    const change = { category: "rules", change: "added", path: "rules.align", description: "rule align added" };
    expect(semanticChanges({ changes: [change] })).toEqual([change]);
    expect(semanticChanges(undefined)).toEqual([]);
  });
});

describe("the runs' keys", () => {
  const id = "r-1";
  const filter = { sort: "order" as const, order: "asc" as const };
  it("put every view of a run under the run, every page of its jobs under its jobs, and the lists apart", () => {
    for (const view of [runKeys.detail(id), runKeys.status(id), runKeys.dag(id), runKeys.jobs(id), runKeys.timeline(id), runKeys.results(id), runKeys.diagnostics(id), runKeys.folder(id, "a"), runKeys.preview(id, "a/b")])
      expect(startsWith(view, runKeys.run(id))).toBe(true);
    expect(startsWith(runKeys.jobPage(id, filter, 3), runKeys.jobs(id))).toBe(true);
    expect(startsWith(runKeys.list({ status: "failed" }), runKeys.lists())).toBe(true);
    expect(startsWith(runKeys.run(id), runKeys.lists())).toBe(false);
    expect(startsWith(runKeys.run("r-2"), runKeys.run(id))).toBe(false);
  });

  it("refresh a run's progress (its status and every page of its jobs) and nothing else; a state change refreshes all its views", async () => {
    const keys = [runKeys.detail(id), runKeys.status(id), runKeys.jobPage(id, filter, 0), runKeys.jobPage(id, { ...filter, q: "x" }, 2), runKeys.timeline(id), runKeys.results(id), runKeys.status("r-2"), runKeys.list({})];
    const progress = clientWith(keys);
    await invalidateRunProgress(progress, id);
    expect(staleKeys(progress)).toEqual([runKeys.status(id), runKeys.jobPage(id, filter, 0), runKeys.jobPage(id, { ...filter, q: "x" }, 2)].map((key) => JSON.stringify(key)).sort());
    const all = clientWith(keys);
    await invalidateRun(all, id);
    expect(staleKeys(all)).toEqual(keys.slice(0, 6).map((key) => JSON.stringify(key)).sort());
  });

  it("ask a page of jobs at its offset, and the timeline's most recent jobs from the end", () => {
    expect(jobPageQuery(id, filter, 3, 200).queryKey).toEqual(runKeys.jobPage(id, filter, 3));
    expect(timelineQuery(id, 500).queryKey).toEqual(runKeys.timeline(id));
  });

  it("refresh the list every 5 s while a run on it is active, every 20 s once all are over", () => {
    const interval = runsQuery({}).refetchInterval as (query: { state: { data: unknown } }) => number;
    const page = (...statuses: string[]) => ({ items: statuses.map((status) => ({ status })), next_cursor: null });
    expect(interval({ state: { data: { pages: [page("completed"), page("failed", "running")] } } })).toBe(5_000);
    expect(interval({ state: { data: { pages: [page("queued")] } } })).toBe(5_000);
    expect(interval({ state: { data: { pages: [page("completed", "cancelled", "failed")] } } })).toBe(20_000);
    expect(interval({ state: { data: undefined } })).toBe(20_000);
  });

  it("address a run's files and events under the app's base path", () => {
    const base = `${APP_ORIGIN}${APP_BASE_PATH}`;
    expect(fileUrl("r 1", "")).toBe(`${base}api/runs/r%201/files`);
    expect(fileUrl(id, "results/a b.txt", { download: true })).toBe(`${base}api/runs/r-1/files?path=results%2Fa+b.txt&download=1`);
    expect(fileUrl(id, "results", { download: true, zip: true })).toBe(`${base}api/runs/r-1/files?path=results&download=1&format=zip`);
    expect(runEventsUrl("r/1")).toBe(`${base}api/events?run_id=r%2F1`);
  });
});

describe("the other resources' keys", () => {
  it("keep each resource under its own root, so invalidating one never reaches another", () => {
    const roots = [healthKeys.all, accountKeys.all, userKeys.all, auditKeys.all, templateKeys.all, aiKeys.all, chatKeys.all, dataKeys.all, checkKeys.all, pipelineKeys.all, runKeys.all, shareKeys.all];
    expect(new Set(roots.map((root) => root[0])).size).toBe(roots.length);
    for (const key of [accountKeys.me(), accountKeys.sessions(), accountKeys.tokens(), accountKeys.providers()]) expect(startsWith(key, accountKeys.all)).toBe(true);
    expect(startsWith(userKeys.list(), userKeys.all)).toBe(true);
    expect(startsWith(aiKeys.config(), aiKeys.all)).toBe(true);
    expect(startsWith(chatKeys.sessions(), chatKeys.all)).toBe(true);
    expect(startsWith(dataKeys.folder("uploads/a"), dataKeys.folders())).toBe(true);
    expect(startsWith(dataKeys.roots(), dataKeys.folders())).toBe(false);
  });

  it("ask the current user only where signing in exists, once a minute at most, never again after a refusal", () => {
    expect(currentUserQuery(false)).toMatchObject({ queryKey: accountKeys.me(), enabled: false, retry: false, staleTime: 60_000 });
    expect(currentUserQuery(true).enabled).toBe(true);
  });

  it("key the audit log by its filters and page size", () => {
    expect(auditQuery({ user: "ada" }, 50).queryKey).toEqual(auditKeys.list({ user: "ada" }, 50));
    expect(auditQuery({}, 50).queryKey).not.toEqual(auditQuery({ user: "ada" }, 50).queryKey);
  });

  it("keep the templates five minutes", () => {
    expect(templatesQuery()).toMatchObject({ queryKey: templateKeys.list(), staleTime: 300_000 });
  });

  it("key each check by the text it is about, asked only when allowed, an answer never asked again for the same text", () => {
    expect(validationQuery(undefined).enabled).toBe(false);
    expect(validationQuery("a = 1")).toMatchObject({ queryKey: checkKeys.check("validate", "a = 1"), enabled: true, staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false });
    expect(checkQuery("dag", "a = 1", false)).toMatchObject({ queryKey: checkKeys.check("dag", "a = 1"), enabled: false });
    expect(checkQuery("lint", "a = 1", true).queryKey).not.toEqual(checkQuery("lint", "a = 2", true).queryKey);
  });
});
