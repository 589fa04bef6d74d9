/**
 * A saved pipeline's revisions: the list, one revision's text, what changed between two (as the service reads
 * it), and restoring an earlier one (saved as a new revision, so a rollback is itself undoable).
 */
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { components } from "../../client/api-types.js";
import { api, dataOf } from "./client.js";
import { pipelineKeys } from "./pipelines.js";
import { afterCacheWork, type AnswerOf, type Reactions } from "./reactions.js";

/** A revision as the list shows it. */
export type RevisionSummary = components["schemas"]["RevisionSummary"];

/** One semantic change as `POST /api/pipelines/diff` describes it. */
export interface SemanticChange {
  category: string;
  change: "added" | "removed" | "changed";
  path: string;
  description: string;
}

/** `GET /api/pipelines/{id}/revisions`: newest first. */
export function revisionsQuery(id: string) {
  return queryOptions({ queryKey: pipelineKeys.revisions(id), queryFn: async () => dataOf(await api.GET("/api/pipelines/{id}/revisions", { params: { path: { id } } })) });
}

/** `GET /api/pipelines/{id}/revisions/{rev}`: one revision with its text (it never changes). */
export function revisionQuery(id: string, revision: number) {
  return queryOptions({
    queryKey: pipelineKeys.revision(id, revision),
    queryFn: async () => dataOf(await api.GET("/api/pipelines/{id}/revisions/{rev}", { params: { path: { id, rev: String(revision) } } })),
    staleTime: Infinity,
  });
}

/** `POST /api/pipelines/diff` of two revisions' texts, asked once both texts are there. */
export function revisionDiffQuery(id: string, older: number, newer: number, texts: { before?: string; after?: string }) {
  return queryOptions({
    queryKey: pipelineKeys.diff(id, older, newer),
    queryFn: async () => dataOf(await api.POST("/api/pipelines/diff", { body: { toml_a: texts.before!, toml_b: texts.after! } })),
    enabled: texts.before !== undefined && texts.after !== undefined,
    staleTime: Infinity,
  });
}

/** The semantic changes of a diff answer (the generated type leaves their shape open). */
export function semanticChanges(diff: { changes?: unknown } | undefined): SemanticChange[] {
  return (diff?.changes ?? []) as SemanticChange[];
}

const rollback = async ({ id, revision }: { id: string; revision: number }) => dataOf(await api.POST("/api/pipelines/{id}/rollback", { params: { path: { id } }, body: { revision_id: revision } }));

/** Restoring revision `revision` of the pipeline: everything about the pipeline, and the list, is refreshed. */
export function useRollback(reactions?: Reactions<AnswerOf<typeof rollback>, { id: string; revision: number }>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: rollback,
    ...afterCacheWork(async (_answer, { id }) => {
      await client.invalidateQueries({ queryKey: pipelineKeys.detail(id) });
      await client.invalidateQueries({ queryKey: pipelineKeys.lists() });
    }, reactions),
  });
}
