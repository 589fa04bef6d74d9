/** The store contract against the embedded SQLite store: a new data directory (and strand.db) per test. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../../src/server/store/open-store.js";
import { registerStoreContract } from "./store-contract.js";

const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

registerStoreContract("sqlite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "strand-store-"));
  dirs.push(dir);
  return { dataDir: join(dir, "data") };
});

describe("openStore without a PostgreSQL URL", () => {
  it("keeps strand.db in the data directory, in WAL mode", async () => {
    const dir = mkdtempSync(join(tmpdir(), "strand-store-"));
    dirs.push(dir);
    const store = await openStore({ dataDir: join(dir, "nested", "data"), url: "" });
    expect(store.kind).toBe("sqlite");
    await store.close();
    const file = new Database(join(dir, "nested", "data", "strand.db"), { readonly: true });
    expect(file.pragma("journal_mode", { simple: true })).toBe("wal");
    file.close();
  });

  it("refuses a URL that is not PostgreSQL rather than silently using the file", async () => {
    await expect(openStore({ dataDir: "/nonexistent", url: "mysql://db/strand" })).rejects.toThrow(/postgres:\/\//);
  });
});
