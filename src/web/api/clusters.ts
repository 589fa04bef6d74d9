/**
 * Remote clusters as the app reads and changes them: the clusters the caller may use (every one for
 * administrators), saving one (administrators; the same call confirms a host key a probe saw), removing one,
 * and probing one. Saving, confirming and removing refresh the list; a probe refreshes it too, since it can
 * record a host key the login node showed.
 */
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { components } from "../../client/api-types.js";
import { api, dataOf } from "./client.js";
import { afterCacheWork, type AnswerOf, type Reactions } from "./reactions.js";

/** A cluster as the service shows it to the caller (account, folder and access lists to administrators only). */
export type Cluster = components["schemas"]["Cluster"];
/** What a probe of a cluster answers. */
export type ClusterProbe = components["schemas"]["ClusterProbe"];
/** What an administrator sends to create or change a cluster. */
export type ClusterChange = components["schemas"]["SaveCluster"];

/** Query keys of the clusters. */
export const clusterKeys = {
  all: ["clusters"] as const,
  list: () => [...clusterKeys.all, "list"] as const,
};

/** `GET /api/clusters`. */
export function clustersQuery() {
  return queryOptions({ queryKey: clusterKeys.list(), queryFn: async () => dataOf(await api.GET("/api/clusters")) });
}

const saveCluster = async (body: ClusterChange) => dataOf(await api.POST("/api/clusters", { body }));

/** Creating or changing a cluster (and confirming its host key: `{id, confirm_host_key: true}`). */
export function useSaveCluster(reactions?: Reactions<AnswerOf<typeof saveCluster>, ClusterChange>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: saveCluster, ...afterCacheWork(() => client.invalidateQueries({ queryKey: clusterKeys.all }), reactions) });
}

/** Removing a cluster. */
export function useDeleteCluster() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => dataOf(await api.DELETE("/api/clusters/{id}", { params: { path: { id } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: clusterKeys.all }),
  });
}

/** Probing a cluster: what its login node offers, or why it cannot be reached. */
export function useProbeCluster() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => dataOf(await api.POST("/api/clusters/{id}/probe", { params: { path: { id } } })),
    onSettled: () => void client.invalidateQueries({ queryKey: clusterKeys.all }),
  });
}
