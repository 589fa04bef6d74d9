/**
 * Submission records: safe file names for any job name, and a durable write/read/remove round trip.
 */
import { readdirSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { jobFileName, readRecord, recordPath, recordsFolder, removeRecord, writeRecord, type SubmissionRecord } from "../../../../src/engine/run/cluster/submission-records.js";
import { removeTempDirs, tempDir, writeFile } from "../../../support/temp-workspace.js";

afterAll(removeTempDirs);

describe("submission records", () => {
  it("keeps plain job names and makes others safe and distinct", () => {
    expect(jobFileName("align_cohort_S1")).toBe("align_cohort_S1");
    expect(jobFileName("ns::align_S1")).toMatch(/^ns__align_S1-[0-9a-f]{8}$/);
    expect(jobFileName("a/b")).not.toBe(jobFileName("a_b"));
    expect(jobFileName(".hidden")).toMatch(/^_hidden-[0-9a-f]{8}$/);
  });

  it("writes, reads and removes a record, leaving no temporary file", async () => {
    const workdir = tempDir();
    const record: SubmissionRecord = { id: "123", backend: "slurm", fingerprint: "abc", submitted_at: "2026-01-01T00:00:00.000Z", attempt: 2, script: "/r/job.sh" };
    await writeRecord(workdir, "align_S1", record);
    expect(recordPath(workdir, "align_S1")).toBe(`${workdir}/.strand/cluster/align_S1.json`);
    expect(readdirSync(recordsFolder(workdir))).toEqual(["align_S1.json"]);
    expect(await readRecord(workdir, "align_S1")).toEqual(record);
    await removeRecord(workdir, "align_S1");
    expect(await readRecord(workdir, "align_S1")).toBeUndefined();
  });

  it("ignores a record it cannot read", async () => {
    const workdir = tempDir();
    writeFile(workdir, ".strand/cluster/broken.json", "{ not json");
    writeFile(workdir, ".strand/cluster/partial.json", '{"id": "1"}');
    expect(await readRecord(workdir, "broken")).toBeUndefined();
    expect(await readRecord(workdir, "partial")).toBeUndefined();
  });
});
