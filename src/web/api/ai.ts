/**
 * The AI features' requests: the provider settings (the chain that answers, your own and the shared
 * provider; a key is write-only), a test of the first provider, a failed run explained, and a pipeline
 * drafted from a sentence as a stream of progress events. Nothing here saves or runs a pipeline.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { components } from "../../client/api-types.js";
import { api, dataOf } from "./client.js";
import { openEventStream } from "./event-streams.js";
import { afterCacheWork, type AnswerOf, type Reactions } from "./reactions.js";

/** The AI settings as the service answers them. */
export type AiConfig = components["schemas"]["AiConfig"];
/** A change of one scope's settings. */
export type AiConfigChange = components["schemas"]["AiConfigChange"];

/** Query keys of the AI settings. */
export const aiKeys = {
  all: ["ai"] as const,
  config: () => [...aiKeys.all, "config"] as const,
};

/** `GET /api/ai/config`: the chain of providers and the saved settings (never a key). */
export function aiConfigQuery() {
  return queryOptions({ queryKey: aiKeys.config(), queryFn: async () => dataOf(await api.GET("/api/ai/config")), staleTime: 30_000 });
}

/** The AI settings (see aiConfigQuery). */
export function useAiConfig() {
  return useQuery(aiConfigQuery());
}

const changeAiConfig = async (body: AiConfigChange) => dataOf(await api.POST("/api/ai/config", { body }));

/** Saving one scope's settings: the answer is the new settings, shown at once and then asked again. */
export function useSaveAiConfig(reactions?: Reactions<AnswerOf<typeof changeAiConfig>, AiConfigChange>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: changeAiConfig,
    ...afterCacheWork((answer) => {
      client.setQueryData(aiKeys.config(), answer);
      void client.invalidateQueries({ queryKey: aiKeys.config() });
    }, reactions),
  });
}

/** Removing one scope's settings (with their key). */
export function useRemoveAiConfig(scope: AiConfigChange["scope"], reactions?: Reactions<AnswerOf<typeof changeAiConfig>, void>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => changeAiConfig({ scope, provider: "disabled" }),
    ...afterCacheWork((answer) => client.setQueryData(aiKeys.config(), answer), reactions),
  });
}

/** Asking the first provider for a one-word reply. */
export function useTestAi() {
  return useMutation({ mutationFn: async () => dataOf(await api.POST("/api/ai/test")) });
}

/** `POST /api/ai/explain`: the model's explanation of a failed run (of `job`, or its first failure); `signal` cancels it. */
export async function explainFailure(request: components["schemas"]["ExplainRequest"], signal: AbortSignal) {
  return dataOf(await api.POST("/api/ai/explain", { body: request, signal }));
}

/** `POST /api/ai/translate/stream`: the drafting's server-sent events, or the service's refusal as an ApiError. */
export function openDraftStream(body: { intent: string; context?: { data: Record<string, unknown> } }, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  return openEventStream("api/ai/translate/stream", body, signal);
}
