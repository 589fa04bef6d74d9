/** Copilot conversations: the store area, on either database. */
import { storeArea } from "../store-area.js";
import type { ChatStore } from "./contract.js";
import { PostgresChatStore } from "./postgres.js";
import { SqliteChatStore } from "./sqlite.js";

/** Copilot conversations. */
export const chatArea = storeArea<ChatStore>({
  name: "chat",
  sqlite: (db, now) => new SqliteChatStore(db, now),
  postgres: (db, now) => new PostgresChatStore(db, now),
});
