/** Complete copilot conversations and their messages rows from what callers supply, shared by both implementations. */
import { randomUUID } from "node:crypto";
import type { ChatMessage, ChatSession, NewChatMessage, NewChatSession } from "./contract.js";

/** A new chat session without messages or summary. */
export function newChatSessionRow(input: NewChatSession, now: string): ChatSession {
  return {
    id: input.id ?? randomUUID(),
    owner: input.owner,
    title: input.title,
    summary: null,
    summarised_through: 0,
    created_at: now,
    updated_at: now,
    message_count: 0,
  };
}

/** A new chat message at the seq the store allotted it. */
export function newChatMessageRow(input: NewChatMessage, seq: number, now: string): ChatMessage {
  return {
    session_id: input.session_id,
    seq,
    role: input.role,
    content: input.content,
    metadata: input.metadata ?? null,
    created_at: now,
  };
}
