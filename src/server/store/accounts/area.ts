/** Accounts, sessions, access tokens and linked identities: the store area, on either database. */
import { storeArea } from "../store-area.js";
import type { AccountStore } from "./contract.js";
import { PostgresAccountStore } from "./postgres.js";
import { SqliteAccountStore } from "./sqlite.js";

/** Accounts, sessions, access tokens and linked identities. */
export const accountArea = storeArea<AccountStore>({
  name: "accounts",
  sqlite: (db, now) => new SqliteAccountStore(db, now),
  postgres: (db, now) => new PostgresAccountStore(db, now),
});
