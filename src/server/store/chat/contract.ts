/**
 * Copilot conversations and their messages: the records and the store contract of this area. Field names follow the API's JSON
 * (snake_case); timestamps are RFC 3339 UTC strings in both implementations.
 */
import type { Page } from "../keyset-cursor.js";

/** A copilot conversation of one user; its messages are numbered 1, 2, … in the order they were appended. */
export interface ChatSession {
  id: string;
  /** A user id in team and hpc modes, `local` in personal mode. */
  owner: string;
  /** What the session was created with; later messages never change it. */
  title: string;
  /** A summary of messages 1..summarised_through, fed to the model instead of those messages; null before the first. */
  summary: string | null;
  summarised_through: number;
  created_at: string;
  /** When the last message was appended (created_at until then). */
  updated_at: string;
  /** How many messages the session holds, which is also the seq of the newest one. */
  message_count: number;
}

/** Who wrote a chat message: the user, the model, or a tool the model called. */
export type ChatRole = "user" | "assistant" | "tool";

/** One message of a chat session. */
export interface ChatMessage {
  session_id: string;
  /** Its place in the session, from 1, without gaps. */
  seq: number;
  role: ChatRole;
  content: string;
  /** Whatever the chat domain keeps beside the text (tool names, arguments, usage); null when nothing. */
  metadata: Record<string, unknown> | null;
  created_at: string;
}

/** What a caller supplies to start a chat session. CONFLICT if the id is taken. */
export interface NewChatSession {
  id?: string;
  owner: string;
  title: string;
}

/** What a caller supplies to append a message; the store numbers it. */
export interface NewChatMessage {
  session_id: string;
  role: ChatRole;
  content: string;
  metadata?: Record<string, unknown> | null;
}

/** Which chat sessions a page holds. */
export interface ChatSessionQuery {
  /** Page size (default 20, clamped to 1..100). */
  limit?: number;
  /** The `next_cursor` of the previous page; absent for the first page. */
  cursor?: string | null;
}

/** Which messages of a session to read. */
export interface ChatMessageQuery {
  /** Only messages with a larger seq (e.g. `summarised_through`); absent: from the first. */
  after?: number;
  /** At most this many messages (default and maximum 1000). */
  limit?: number;
}

/** Copilot conversations and their messages: what the services may read and change. */
export interface ChatStore {
  /** Starts a chat session without messages. CONFLICT if the id is taken. Deleted with its owner's account. */
  createChatSession(input: NewChatSession): Promise<ChatSession>;

  /** The chat session with this id. NOT_FOUND if there is none. */
  getChatSession(id: string): Promise<ChatSession>;

  /** One owner's chat sessions, most recently updated first, a page at a time. */
  listChatSessions(owner: string, query?: ChatSessionQuery): Promise<Page<ChatSession>>;

  /**
   * Appends a message as the session's next seq (distinct and consecutive under concurrent appends), moving
   * the session's updated_at and message_count. NOT_FOUND for an unknown session.
   */
  appendChatMessage(input: NewChatMessage): Promise<ChatMessage>;

  /** A session's messages by seq ascending. NOT_FOUND for an unknown session. */
  listChatMessages(sessionId: string, query?: ChatMessageQuery): Promise<ChatMessage[]>;

  /** Records the summary of messages 1..summarisedThrough, replacing the previous one. NOT_FOUND for an unknown session. */
  setChatSummary(sessionId: string, summary: string, summarisedThrough: number): Promise<void>;

  /** Deletes a chat session with its messages. NOT_FOUND if there is none. */
  deleteChatSession(id: string): Promise<void>;
}
