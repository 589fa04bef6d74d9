/** The PostgreSQL tables of this area (aI provider settings, the service's and each user's); drizzle-kit generates `drizzle/pg/` from every area's. */
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "../accounts/schema-pg.js";

/**
 * AI provider settings per scope: `server` for the shared ones, a user id for one user's. `user_id` repeats
 * the scope when it names an account (null for `server`), so a user's settings die with the account.
 */
export const aiSettings = pgTable(
  "ai_settings",
  {
    scope: text().primaryKey(),
    user_id: text().references(() => users.id, { onDelete: "cascade" }),
    provider: text().notNull(),
    model: text(),
    api_url: text(),
    sealed_api_key: text(),
    updated_at: text().notNull(),
    updated_by: text(),
  },
  (t) => [index("ai_settings_user_idx").on(t.user_id)],
);
