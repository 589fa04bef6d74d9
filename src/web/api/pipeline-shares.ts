/**
 * A pipeline's share links: the list, making one (with a lifetime), revoking one, and what a link opens
 * (`GET /api/share/{token}`, public in every mode). The link people open is this app's `/share/<token>` page.
 */
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { components } from "../../client/api-types.js";
import { api, dataOf } from "./client.js";
import { ApiError } from "./errors.js";
import { pipelineKeys } from "./pipelines.js";
import { afterCacheWork, type AnswerOf, type Reactions } from "./reactions.js";

/** A share link as the service lists it. */
export type ShareLink = components["schemas"]["ShareLink"];

/** Query keys of what share links open. */
export const shareKeys = {
  all: ["share"] as const,
  landing: (token: string) => [...shareKeys.all, token] as const,
};

/** `GET /api/pipelines/{id}/shares`: every link of the pipeline with its state (asked only by who may share it). */
export function sharesQuery(id: string, enabled: boolean) {
  return queryOptions({ queryKey: pipelineKeys.shares(id), queryFn: async () => dataOf(await api.GET("/api/pipelines/{id}/shares", { params: { path: { id } } })), enabled });
}

const createShare = async ({ id, days }: { id: string; days: number }) => dataOf(await api.POST("/api/pipelines/{id}/share", { params: { path: { id } }, body: { expires_in_days: days } }));

/** Making a share link that expires after `days`; the list is refreshed before the page's reactions. */
export function useCreateShare(reactions?: Reactions<AnswerOf<typeof createShare>, { id: string; days: number }>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: createShare, ...afterCacheWork((_link, { id }) => client.invalidateQueries({ queryKey: pipelineKeys.shares(id) }), reactions) });
}

const revokeShare = async ({ id, token }: { id: string; token: string }) => dataOf(await api.DELETE("/api/pipelines/{id}/share/{token}", { params: { path: { id, token } } }));

/** Revoking a share link; the list is refreshed first, so a dialog closes onto rows without its button. */
export function useRevokeShare(reactions?: Reactions<AnswerOf<typeof revokeShare>, { id: string; token: string }>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: revokeShare, ...afterCacheWork((_link, { id }) => client.invalidateQueries({ queryKey: pipelineKeys.shares(id) }), reactions) });
}

/** `GET /api/share/{token}`: the shared pipeline; a refusal (gone, revoked, not found) is not asked again. */
export function sharedPipelineQuery(token: string) {
  return queryOptions({
    queryKey: shareKeys.landing(token),
    queryFn: async () => dataOf(await api.GET("/api/share/{token}", { params: { path: { token } } })),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });
}
