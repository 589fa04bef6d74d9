/** Copilot conversations and their messages in PostgreSQL. */
import { and, asc, desc, eq, getTableColumns, gt, sql } from "drizzle-orm";
import { decodeCursor, type Page, pageFromRows } from "../keyset-cursor.js";
import { CHAT_MESSAGE_LIMIT, CHAT_SESSION_LIMIT, clampLimit } from "../listing-limits.js";
import { accountIdOf, insertOrConflict, olderThan, type PgDb } from "../postgres-queries.js";
import type { Clock } from "../record-fields.js";
import { notFound } from "../store-error.js";
import type { ChatMessage, ChatMessageQuery, ChatSession, ChatSessionQuery, ChatStore, NewChatMessage, NewChatSession } from "./contract.js";
import { newChatMessageRow, newChatSessionRow } from "./rows.js";
import { chatMessages, chatSessions } from "./schema-pg.js";

/** The chat session columns callers see (not the account link). */
const { user_id: _sessionUser, ...CHAT_SESSION_COLUMNS } = getTableColumns(chatSessions);

/** Copilot conversations and their messages in the PostgreSQL database. */
export class PostgresChatStore implements ChatStore {
  constructor(
    private readonly db: PgDb,
    private readonly now: Clock,
  ) {}

  async createChatSession(input: NewChatSession): Promise<ChatSession> {
    const row = newChatSessionRow(input, this.now());
    await insertOrConflict(
      () => this.db.insert(chatSessions).values({ ...row, user_id: accountIdOf(row.owner) }),
      `chat session ${row.id} already exists`,
    );
    return row;
  }

  async getChatSession(id: string): Promise<ChatSession> {
    const [row] = await this.db.select(CHAT_SESSION_COLUMNS).from(chatSessions).where(eq(chatSessions.id, id));
    if (row === undefined) throw notFound("chat session", id);
    return row;
  }

  async listChatSessions(owner: string, query: ChatSessionQuery = {}): Promise<Page<ChatSession>> {
    const limit = clampLimit(query.limit, CHAT_SESSION_LIMIT);
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const rows = await this.db
      .select(CHAT_SESSION_COLUMNS)
      .from(chatSessions)
      .where(and(eq(chatSessions.owner, owner), olderThan(chatSessions.updated_at, chatSessions.id, after)))
      .orderBy(desc(chatSessions.updated_at), desc(chatSessions.id))
      .limit(limit + 1);
    return pageFromRows(rows, limit, (row) => ({ at: row.updated_at, id: row.id }));
  }

  async appendChatMessage(input: NewChatMessage): Promise<ChatMessage> {
    const now = this.now();
    return this.db.transaction(async (tx) => {
      // The increment both numbers the message and counts it; its row lock makes a concurrent appender wait
      // for this commit and then increment the count this one wrote.
      const [counted] = await tx
        .update(chatSessions)
        .set({ message_count: sql`${chatSessions.message_count} + 1`, updated_at: now })
        .where(eq(chatSessions.id, input.session_id))
        .returning({ seq: chatSessions.message_count });
      if (counted === undefined) throw notFound("chat session", input.session_id);
      const row = newChatMessageRow(input, counted.seq, now);
      await tx.insert(chatMessages).values(row);
      return row;
    });
  }

  async listChatMessages(sessionId: string, query: ChatMessageQuery = {}): Promise<ChatMessage[]> {
    return this.db.transaction(
      async (tx) => {
        const [exists] = await tx.select({ id: chatSessions.id }).from(chatSessions).where(eq(chatSessions.id, sessionId));
        if (exists === undefined) throw notFound("chat session", sessionId);
        return tx
          .select()
          .from(chatMessages)
          .where(and(eq(chatMessages.session_id, sessionId), query.after === undefined ? undefined : gt(chatMessages.seq, query.after)))
          .orderBy(asc(chatMessages.seq))
          .limit(clampLimit(query.limit, CHAT_MESSAGE_LIMIT));
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
  }

  async setChatSummary(sessionId: string, summary: string, summarisedThrough: number): Promise<void> {
    const changed = await this.db
      .update(chatSessions)
      .set({ summary, summarised_through: summarisedThrough })
      .where(eq(chatSessions.id, sessionId))
      .returning({ id: chatSessions.id });
    if (changed.length === 0) throw notFound("chat session", sessionId);
  }

  async deleteChatSession(id: string): Promise<void> {
    const deleted = await this.db.delete(chatSessions).where(eq(chatSessions.id, id)).returning({ id: chatSessions.id });
    if (deleted.length === 0) throw notFound("chat session", id);
  }
}
