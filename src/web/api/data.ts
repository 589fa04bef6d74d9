/**
 * The caller's data as "start from my data" reads it: the folders they may read, a folder's entries,
 * uploads into their own files folder, what the service finds in a folder, and a template filled from it.
 */
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, dataOf } from "./client.js";
import type { AnswerOf, Reactions } from "./reactions.js";

/** Query keys of the data folders. */
export const dataKeys = {
  all: ["data"] as const,
  roots: () => [...dataKeys.all, "roots"] as const,
  /** Every folder listing: what an upload makes stale. */
  folders: () => [...dataKeys.all, "folder"] as const,
  folder: (path: string) => [...dataKeys.folders(), path] as const,
};

/** `GET /api/data/roots`: your own files folder and the data roots you may read. */
export function dataRootsQuery() {
  return queryOptions({ queryKey: dataKeys.roots(), queryFn: async () => dataOf(await api.GET("/api/data/roots")), staleTime: 60_000 });
}

/** `GET /api/files?path=`: a folder's entries. */
export function dataFolderQuery(path: string) {
  return queryOptions({ queryKey: dataKeys.folder(path), queryFn: async () => dataOf(await api.GET("/api/files", { params: { query: { path } } })) });
}

/** Uploads chosen files into `folder` of the caller's files folder (multipart); every listing is refreshed. */
export function useUpload(folder: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (files: File[]) => {
      const form = new FormData();
      for (const file of files) form.append("file", file, file.name);
      return dataOf(await api.POST("/api/files", { params: { query: { path: folder } }, body: form as never, bodySerializer: (body: unknown) => body as FormData }));
    },
    onSuccess: () => client.invalidateQueries({ queryKey: dataKeys.folders() }),
  });
}

const analyse = async (path: string) => dataOf(await api.POST("/api/data/analyze", { body: { paths: [path] } }));

/** `POST /api/data/analyze` of one folder: formats by content, pairs, lanes, samples, read length, suggested templates. */
export function useAnalyseData(reactions?: Reactions<AnswerOf<typeof analyse>, string>) {
  return useMutation({ mutationFn: analyse, ...reactions });
}

/** `POST /api/data/template`: a template filled with a folder's samples and reads. */
export function useFillTemplate() {
  return useMutation({ mutationFn: async ({ path, template }: { path: string; template: string }) => dataOf(await api.POST("/api/data/template", { body: { paths: [path], template } })) });
}
