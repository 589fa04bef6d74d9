/** The store contract against a real PostgreSQL server: a new database per test, dropped at the end. */
import { afterAll, describe } from "vitest";
import {
  dropTestDatabase,
  ensurePostgres,
  failWithoutPostgresWhenStrict,
} from "../../support/postgres-server.js";
import { registerStoreContract } from "./store-contract.js";

const first = await ensurePostgres();
const databases: string[] = first === undefined ? [] : [first];
let unused = first;

afterAll(async () => {
  await Promise.all(databases.map((url) => dropTestDatabase(url)));
});

failWithoutPostgresWhenStrict(first !== undefined);

describe.skipIf(first === undefined)("PostgreSQL", () => {
  registerStoreContract("postgres", async () => {
    // The database made to learn whether PostgreSQL is here serves the first test.
    let url = unused;
    unused = undefined;
    if (url === undefined) {
      url = await ensurePostgres();
      if (url === undefined) throw new Error("PostgreSQL went away during the tests");
      databases.push(url);
    }
    return { url, dataDir: "/nonexistent-postgres-is-used" };
  });
});
