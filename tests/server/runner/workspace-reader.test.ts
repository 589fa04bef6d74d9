/**
 * Bounded folder reads (issue 25, review of finding 5): a job can fill a folder with millions of names; the
 * service reads at most what it will show, a batch at a time, and knows there were more.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { folderEntries, folderEntriesAsync } from "../../../src/server/runner/workspace-reader.js";
import { removeTempDirs, tempDir } from "../../support/temp-workspace.js";

afterAll(removeTempDirs);

describe("folderEntries", () => {
  const folder = join(tempDir(), "many");
  mkdirSync(folder);
  for (let index = 0; index < 3000; index++) writeFileSync(join(folder, `f${index}`), "");

  it("reads at most the entries asked for and says when there are more, in both forms", async () => {
    for (const read of [folderEntries(folder, 100), await folderEntriesAsync(folder, 100)]) {
      expect(read.entries).toHaveLength(100);
      expect(read.more).toBe(true);
    }
    for (const read of [folderEntries(folder, 3000), await folderEntriesAsync(folder, 3000)]) {
      expect(read.entries).toHaveLength(3000);
      expect(read.more).toBe(false);
    }
  });

  it("answers nothing for what is not a folder", async () => {
    expect(folderEntries(join(folder, "f1"), 10)).toEqual({ entries: [], more: false });
    expect(await folderEntriesAsync(join(folder, "missing"), 10)).toEqual({ entries: [], more: false });
  });
});
