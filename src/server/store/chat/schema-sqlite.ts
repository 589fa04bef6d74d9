/** The SQLite tables of this area (copilot conversations and their messages); drizzle-kit generates `drizzle/sqlite/` from every area's. */
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "../accounts/schema-sqlite.js";
import { ownedBy } from "../sqlite-columns.js";

/**
 * Copilot conversations. `owner` is a user id, or `local` in personal mode where there are no accounts;
 * `user_id` repeats the owner when it names an account, so the sessions die with it. `message_count` is also
 * the seq of the newest message: appending increments it in the statement that locks the row.
 */
export const chatSessions = sqliteTable(
  "chat_sessions",
  {
    id: text().primaryKey(),
    owner: text().notNull(),
    user_id: text().references(() => users.id, { onDelete: "cascade" }),
    title: text().notNull(),
    summary: text(),
    summarised_through: integer().notNull().default(0),
    created_at: text().notNull(),
    updated_at: text().notNull(),
    message_count: integer().notNull().default(0),
  },
  (t) => [index("chat_sessions_owner_updated_idx").on(t.owner, t.updated_at, t.id), index("chat_sessions_user_idx").on(t.user_id)],
);

/** The messages of a chat session, numbered from 1 per session; they die with their session. */
export const chatMessages = sqliteTable(
  "chat_messages",
  {
    session_id: ownedBy(() => chatSessions.id),
    seq: integer().notNull(),
    role: text({ enum: ["user", "assistant", "tool"] }).notNull(),
    content: text().notNull(),
    metadata: text({ mode: "json" }).$type<Record<string, unknown>>(),
    created_at: text().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.session_id, t.seq] }),
    check("chat_messages_role_check", sql`${t.role} in ('user', 'assistant', 'tool')`),
  ],
);
