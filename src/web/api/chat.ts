/**
 * The copilot's conversations: past sessions (listed, opened, deleted) and a message sent with what the user
 * sees, answered as a stream of server-sent events.
 */
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { components } from "../../client/api-types.js";
import { api, dataOf } from "./client.js";
import { openEventStream } from "./event-streams.js";
import { afterCacheWork, type AnswerOf, type Reactions } from "./reactions.js";

/** A message as a session keeps it. */
export type ChatMessage = components["schemas"]["ChatMessage"];

/** Query keys of the copilot's sessions. */
export const chatKeys = {
  all: ["chat"] as const,
  sessions: () => [...chatKeys.all, "sessions"] as const,
};

/** `GET /api/chat/sessions`: the 50 latest conversations. */
export function chatSessionsQuery() {
  return queryOptions({ queryKey: chatKeys.sessions(), queryFn: async () => dataOf(await api.GET("/api/chat/sessions", { params: { query: { limit: 50 } } })) });
}

const deleteSession = async (id: string) => dataOf(await api.DELETE("/api/chat/sessions/{id}", { params: { path: { id } } }));

/** Deleting a conversation with its messages. */
export function useDeleteChatSession(reactions?: Reactions<AnswerOf<typeof deleteSession>, string>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: deleteSession, ...afterCacheWork(() => void client.invalidateQueries({ queryKey: chatKeys.sessions() }), reactions) });
}

/** A past conversation's messages. */
export async function fetchChatMessages(id: string) {
  return dataOf(await api.GET("/api/chat/sessions/{id}/messages", { params: { path: { id } } }));
}

/** `POST /api/chat/send`: the reply's server-sent events, or the service's refusal as an ApiError; `signal` stops it (and the model call). */
export function openChatStream(body: components["schemas"]["ChatSendRequest"], signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  return openEventStream("api/chat/send", body, signal);
}
