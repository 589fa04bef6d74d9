/**
 * The parts of a run that change what runs while it runs: checkpoint rules that add samples (re-entry),
 * reference builds before the jobs, and temporary outputs deleted after their consumers (Decision 4).
 */
import { existsSync, readFileSync, writeFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadPipeline } from "../../../src/engine/format/load.js";
import { readCheckpoint } from "../../../src/engine/run/checkpoint/checkpoint.js";
import { readEventLog, type RunEvent } from "../../../src/engine/run/event-log.js";
import { startRun, type RunOptions, type RunResult } from "../../../src/engine/run/run-pipeline.js";
import { planPipeline } from "../../../src/engine/run/plan.js";
import { removeTempDirs, tempDir, writeFile } from "../../support/temp-workspace.js";

afterAll(removeTempDirs);

const HEADER = `[workflow]\nname = "dynamic"\nversion = "1.0"\n`;

async function run(dir: string, options: RunOptions = {}): Promise<{ result: RunResult; events: RunEvent[] }> {
  const pipeline = await loadPipeline(join(dir, "main.oxoflow"));
  const result = await startRun(pipeline, options).result;
  return { result, events: readEventLog(result.eventsPath) };
}

const started = (events: RunEvent[]): string[] => events.filter((event) => event.type === "job_started").map((event) => event.job as string);

describe("checkpoint rules (re-entry)", () => {
  const PIPELINE = `${HEADER}
[[sample_groups]]
name = "batch"
samples = ["S1"]

[[rules]]
name = "discover"
output = ["discovered.toml"]
checkpoint = true
checkpoint_manifest = "discovered.toml"
shell = """
printf '[reentry]\\ngroup = "batch"\\nsample = ["S2", "S3"]\\n' > discovered.toml
"""

[[rules]]
name = "process"
input = ["discovered.toml"]
output = ["out/{sample}.txt"]
shell = "echo {sample} > {output}"
`;

  it("runs the jobs of the samples a checkpoint job announces, in the same run, and replays them later", async () => {
    const dir = tempDir();
    writeFile(dir, "main.oxoflow", PIPELINE);
    const { result, events } = await run(dir, { jobs: 2 });
    expect(result.status).toBe("completed");
    for (const sample of ["S1", "S2", "S3"]) expect(readFileSync(join(dir, "out", `${sample}.txt`), "utf8")).toBe(`${sample}\n`);
    const reentry = events.find((event) => event.type === "reentry");
    expect(reentry).toMatchObject({ round: 1, rule: "discover", group: "batch", samples: ["S2", "S3"] });
    expect(started(events).sort()).toEqual(["discover", "process_batch_S1", "process_batch_S2", "process_batch_S3"]);
    expect(readCheckpoint(dir)?.reentries).toHaveLength(1);

    // A later run replays the recorded round: the new samples are known, and nothing runs again.
    const again = await run(dir);
    expect(again.result.counts.succeeded).toBe(0);
    const pipeline = await loadPipeline(join(dir, "main.oxoflow"));
    const { applyReentries } = await import("../../../src/engine/run/checkpoint/reentry.js");
    applyReentries(pipeline, readCheckpoint(dir)!.reentries);
    expect(planPipeline(pipeline).jobs.map((job) => job.job.name)).toContain("process_batch_S3");
  });

  it("fails the run with a clear message when the manifest was not written", async () => {
    const dir = tempDir();
    writeFile(dir, "main.oxoflow", PIPELINE.replace("printf '[reentry]\\ngroup = \"batch\"\\nsample = [\"S2\", \"S3\"]\\n' > discovered.toml", "touch discovered.toml; rm discovered.toml; touch other").replace('output = ["discovered.toml"]', 'output = ["other"]').replace('input = ["discovered.toml"]', 'input = ["other"]'));
    const { result } = await run(dir);
    expect(result.status).toBe("failed");
    expect(result.error).toContain("cannot read its manifest discovered.toml");
  });
});

describe("reference builds", () => {
  const PIPELINE = `${HEADER}
[config]
label = "v1"

[[references]]
name = "genome_index"
source = "genome.fa"
output = "ref/genome.idx"
build = "mkdir -p ref && wc -c < {source} > {output} && echo {config.label} >> {output}"

[[rules]]
name = "use"
input = ["{config.genome_index}"]
output = ["used.txt"]
shell = "cat {input} > {output}"
`;

  it("builds a missing reference before the jobs, rebuilds when its source changes, and re-runs its users", async () => {
    const dir = tempDir();
    writeFile(dir, "main.oxoflow", PIPELINE);
    writeFile(dir, "genome.fa", ">chr1\nACGT\n");
    const first = await run(dir);
    expect(first.result.status).toBe("completed");
    expect(readFileSync(join(dir, "ref", "genome.idx"), "utf8")).toBe("11\nv1\n");
    const types = first.events.map((event) => event.type);
    expect(types.indexOf("reference_build_completed")).toBeLessThan(types.indexOf("job_started"));
    expect(first.events.find((event) => event.type === "reference_build_started")).toMatchObject({ reference: "genome_index", reason: "output missing" });

    const second = await run(dir);
    expect(second.events.some((event) => event.type === "reference_build_started")).toBe(false);
    expect(second.result.counts.succeeded).toBe(0);

    writeFile(dir, "genome.fa", ">chr1\nACGTACGT\n");
    const later = new Date(Date.now() + 5000);
    utimesSync(join(dir, "genome.fa"), later, later);
    const third = await run(dir);
    expect(third.events.find((event) => event.type === "reference_build_started")?.reason).toBe("source is newer than output");
    expect(started(third.events)).toEqual(["use"]);
    expect(readFileSync(join(dir, "used.txt"), "utf8")).toBe("15\nv1\n");
  });

  it("a failing build stops the run before any job starts", async () => {
    const dir = tempDir();
    writeFile(dir, "main.oxoflow", PIPELINE.replace("mkdir -p ref && wc", "exit 4; wc"));
    writeFile(dir, "genome.fa", ">chr1\nACGT\n");
    const { result, events } = await run(dir);
    expect(result.status).toBe("failed");
    expect(events.find((event) => event.type === "reference_build_failed")).toMatchObject({ reference: "genome_index", exit_code: 4 });
    expect(started(events)).toEqual([]);
  });

  it("--skip-ref-build leaves references alone", async () => {
    const dir = tempDir();
    writeFile(dir, "main.oxoflow", PIPELINE);
    writeFile(dir, "genome.fa", ">chr1\nACGT\n");
    const { events } = await run(dir, { skipRefBuild: true });
    expect(events.some((event) => event.type === "reference_build_started")).toBe(false);
  });
});

describe("temporary outputs", () => {
  const PIPELINE = `${HEADER}
[[rules]]
name = "intermediate"
output = ["tmp/big.txt", "keep.txt"]
temp_output = ["tmp/big.txt"]
shell = "mkdir -p tmp && echo data > tmp/big.txt && echo keep > keep.txt"

[[rules]]
name = "scratchy"
output = ["scratch.txt"]
temporary = true
shell = "echo s > scratch.txt"

[[rules]]
name = "final"
input = ["tmp/big.txt", "scratch.txt"]
output = ["final.txt"]
shell = "cat {input} > {output}"
`;

  it("deletes temp_output and temporary outputs once their consumers succeeded, and a later run does not redo them", async () => {
    const dir = tempDir();
    writeFile(dir, "main.oxoflow", PIPELINE);
    const { result } = await run(dir);
    expect(result.status).toBe("completed");
    expect(readFileSync(join(dir, "final.txt"), "utf8")).toBe("data\ns\n");
    expect(existsSync(join(dir, "tmp", "big.txt"))).toBe(false);
    expect(existsSync(join(dir, "scratch.txt"))).toBe(false);
    expect(existsSync(join(dir, "keep.txt"))).toBe(true);
    const tombstones = readCheckpoint(dir)!.tombstones;
    expect(tombstones.intermediate).toEqual(["tmp/big.txt"]);
    expect(tombstones.scratchy).toEqual(["scratch.txt"]);

    const again = await run(dir);
    expect(again.result.counts.succeeded).toBe(0);

    // When a consumer must run again, the deleted inputs are made again first.
    writeFileSync(join(dir, "main.oxoflow"), PIPELINE.replace("cat {input} > {output}", "cat {input} {input} > {output}"));
    const third = await run(dir);
    expect(started(third.events).sort()).toEqual(["final", "intermediate", "scratchy"]);
    expect(readFileSync(join(dir, "final.txt"), "utf8")).toBe("data\ns\ndata\ns\n");
  });

  it("keeps temporary outputs when a consumer failed", async () => {
    const dir = tempDir();
    writeFile(dir, "main.oxoflow", PIPELINE.replace("cat {input} > {output}", "exit 1"));
    const { result } = await run(dir);
    expect(result.status).toBe("failed");
    expect(existsSync(join(dir, "tmp", "big.txt"))).toBe(true);
    expect(existsSync(join(dir, "scratch.txt"))).toBe(true);
  });
});
