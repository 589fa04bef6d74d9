/**
 * Saved pipelines: the list (and the service's search of their text), one pipeline, and the changes that
 * make, copy, bring in, save or delete one. Everything about one pipeline (its revisions, share links,
 * comparisons) is keyed under `pipelineKeys.detail(id)`, so one invalidation refreshes all of it; the list
 * and the search are keyed apart, under `pipelineKeys.lists()`.
 */
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { components } from "../../client/api-types.js";
import { api, dataOf } from "./client.js";
import { afterCacheWork, type AnswerOf, type Reactions } from "./reactions.js";

/** A pipeline as the list shows it. */
export type PipelineSummary = components["schemas"]["PipelineSummary"];

/** How many pipelines the list asks for. */
const LIST_LIMIT = 100;

/** Query keys of the saved pipelines. */
export const pipelineKeys = {
  all: ["pipelines"] as const,
  /** The list and the search of the pipelines' text: what a new, changed or deleted pipeline makes stale. */
  lists: () => [...pipelineKeys.all, "list"] as const,
  list: () => [...pipelineKeys.lists(), { limit: LIST_LIMIT }] as const,
  search: (words: string) => [...pipelineKeys.lists(), "search", words] as const,
  details: () => [...pipelineKeys.all, "detail"] as const,
  /** One pipeline, and (below it) everything about it. */
  detail: (id: string) => [...pipelineKeys.details(), id] as const,
  revisions: (id: string) => [...pipelineKeys.detail(id), "revisions"] as const,
  revision: (id: string, revision: number) => [...pipelineKeys.detail(id), "revision", revision] as const,
  diff: (id: string, older: number, newer: number) => [...pipelineKeys.detail(id), "diff", older, newer] as const,
  shares: (id: string) => [...pipelineKeys.detail(id), "shares"] as const,
  /** The service's reading of the saved text, as it was at `updatedAt`. */
  parsed: (id: string, updatedAt: string | undefined) => [...pipelineKeys.detail(id), "parsed", updatedAt] as const,
};

/** `GET /api/pipelines`: the pipelines the caller may see (the first 100). */
export function pipelinesQuery() {
  return queryOptions({ queryKey: pipelineKeys.list(), queryFn: async () => dataOf(await api.GET("/api/pipelines", { params: { query: { limit: LIST_LIMIT } } })) });
}

/** `POST /api/pipelines/search`: ranked hits of `words` in the pipelines' text (asked from two characters on). */
export function pipelineSearchQuery(words: string) {
  return queryOptions({
    queryKey: pipelineKeys.search(words),
    queryFn: async () => dataOf(await api.POST("/api/pipelines/search", { body: { query: words, limit: 50 } })),
    enabled: words.length >= 2,
    staleTime: 30_000,
  });
}

/** A saved pipeline with its text, read now. */
export async function fetchPipeline(id: string) {
  return dataOf(await api.GET("/api/pipelines/{id}", { params: { path: { id } } }));
}

/** A saved pipeline as it is read where it is shown. */
export type Pipeline = AnswerOf<typeof fetchPipeline>;

/** `GET /api/pipelines/{id}`: one pipeline with its text. */
export function pipelineQuery(id: string) {
  return queryOptions({ queryKey: pipelineKeys.detail(id), queryFn: () => fetchPipeline(id) });
}

/**
 * The pipeline the editor is editing: never refetched by itself, since the editor keeps its own copy of the
 * text and a refetch must not look like someone else's change (a save sets it).
 */
export function editedPipelineQuery(id: string) {
  return queryOptions({ ...pipelineQuery(id), staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false });
}

/** `POST /api/pipelines/parse` of a saved pipeline's text: its config keys and samples (for starting a run). */
export function parsedPipelineQuery(pipeline: Pick<Pipeline, "id" | "updated_at" | "toml_content"> | undefined) {
  return queryOptions({
    queryKey: pipelineKeys.parsed(pipeline?.id ?? "", pipeline?.updated_at),
    enabled: pipeline !== undefined,
    queryFn: async () => dataOf(await api.POST("/api/pipelines/parse", { body: { toml_content: pipeline!.toml_content } })),
    retry: false,
  });
}

type NewPipeline = components["schemas"]["CreatePipeline"];
const createPipeline = async (body: NewPipeline) => dataOf(await api.POST("/api/pipelines", { body }));

/** Saving a new pipeline; the list is refreshed before the page's reactions. */
export function useCreatePipeline(reactions?: Reactions<AnswerOf<typeof createPipeline>, NewPipeline>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: createPipeline, ...afterCacheWork(() => client.invalidateQueries({ queryKey: pipelineKeys.lists() }), reactions) });
}

/** What the editor saves: a new revision of a saved pipeline, or a new pipeline named after its workflow. */
export type PipelineSave = { id: string; revision: number | undefined; toml_content: string } | { id?: undefined; name: string; toml_content: string };
const savePipeline = async (save: PipelineSave) =>
  save.id !== undefined
    ? dataOf(await api.PUT("/api/pipelines/{id}", { params: { path: { id: save.id } }, body: { toml_content: save.toml_content, revision: save.revision } }))
    : dataOf(await api.POST("/api/pipelines", { body: { name: save.name, toml_content: save.toml_content } }));

/** The editor's save: the saved pipeline's cached copy becomes the answer, and the list goes stale. */
export function useSavePipeline(reactions?: Reactions<AnswerOf<typeof savePipeline>, PipelineSave>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: savePipeline,
    ...afterCacheWork((answer) => {
      void client.invalidateQueries({ queryKey: pipelineKeys.lists() });
      client.setQueryData(pipelineKeys.detail(answer.id), answer);
    }, reactions),
  });
}

const forkPipeline = async (id: string) => dataOf(await api.POST("/api/pipelines/{id}/fork", { params: { path: { id } }, body: {} }));

/** Copying a pipeline into a private one the caller owns. */
export function useForkPipeline(reactions?: Reactions<AnswerOf<typeof forkPipeline>, string>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: forkPipeline, ...afterCacheWork(() => client.invalidateQueries({ queryKey: pipelineKeys.lists() }), reactions) });
}

type ImportRequest = components["schemas"]["ImportRequest"];
const importPipeline = async (body: ImportRequest) => dataOf(await api.POST("/api/pipelines/import", { body }));

/** Importing a pipeline from a share link or a file's address into a private one the caller owns. */
export function useImportPipeline(reactions?: Reactions<AnswerOf<typeof importPipeline>, ImportRequest>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: importPipeline, ...afterCacheWork(() => client.invalidateQueries({ queryKey: pipelineKeys.lists() }), reactions) });
}

const deletePipeline = async (id: string) => dataOf(await api.DELETE("/api/pipelines/{id}", { params: { path: { id } } }));

/**
 * Deleting a pipeline with its revisions and share links. Only the list is refreshed: the pipeline's own
 * queries stay as they are until the page leaves (refetching them would only answer 404 to the page).
 */
export function useDeletePipeline(reactions?: Reactions<AnswerOf<typeof deletePipeline>, string>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: deletePipeline, ...afterCacheWork(() => client.invalidateQueries({ queryKey: pipelineKeys.lists() }), reactions) });
}
