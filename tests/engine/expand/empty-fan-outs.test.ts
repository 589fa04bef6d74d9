/**
 * Empty fan-outs: validate and plan expansion agree on every case of the table (the same W027 warnings at
 * the same lines, the same jobs, or the same error), and an empty scatter keeps its gather rule as oxo-flow
 * does, with no scattered inputs.
 */
import { afterAll, describe, expect, it } from "vitest";
import { validatePipeline } from "../../../src/engine/check/validate.js";
import { expandPipeline, type Expansion } from "../../../src/engine/expand/expand.js";
import { EngineError, type Finding } from "../../../src/engine/findings.js";
import { loadPipeline } from "../../../src/engine/format/load.js";
import { FAN_OUT_CASES } from "../../support/empty-fan-out-cases.js";
import { removeTempDirs, tempDir, writeFile } from "../../support/temp-workspace.js";

afterAll(removeTempDirs);

const FAN_OUT_CODES = new Set(["W027", "E005", "EXPAND_ERROR"]);

async function loadCase(pipeline: string, files: Record<string, string> = {}) {
  const dir = tempDir();
  for (const [path, content] of Object.entries(files)) writeFile(dir, path, content);
  return loadPipeline(writeFile(dir, "main.oxoflow", pipeline));
}

function expandOrError(pipeline: Awaited<ReturnType<typeof loadCase>>): Expansion | EngineError {
  try {
    return expandPipeline(pipeline, "plan");
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
}

const place = (finding: Finding): [string | null, number | null] => [finding.rule, finding.line];

describe("validate and expansion agree on fan-outs over empty or unresolvable lists", () => {
  for (const fanOutCase of FAN_OUT_CASES) {
    it(fanOutCase.name, async () => {
      const pipeline = await loadCase(fanOutCase.pipeline, fanOutCase.files);
      const validation = validatePipeline(pipeline).findings.filter((finding) => FAN_OUT_CODES.has(finding.code));
      const expanded = expandOrError(pipeline);
      if (fanOutCase.error) {
        expect(expanded).toBeInstanceOf(EngineError);
        const error = expanded as EngineError;
        expect({ code: error.code, line: error.finding.line, message: error.message }).toEqual(fanOutCase.error);
        // validate reports the very finding expansion stops at (first, when there are several).
        expect(validation[0]).toEqual(error.finding);
        return;
      }
      expect(expanded).not.toBeInstanceOf(EngineError);
      const expansion = expanded as Expansion;
      expect(expansion.jobs.map((job) => job.name)).toEqual(fanOutCase.jobs);
      expect(expansion.warnings.map(place)).toEqual(fanOutCase.switchedOff);
      expect(expansion.warnings.every((finding) => finding.code === "W027" && finding.severity === "warning" && finding.suggestion)).toBe(true);
      expect(validation).toEqual(expansion.warnings);
    });
  }
});

describe("consequences of a branch switched off", () => {
  it("the gather rule of an empty scatter keeps only its own inputs; the warning names it", async () => {
    const pipeline = await loadCase(FAN_OUT_CASES[1]!.pipeline);
    const expansion = expandPipeline(pipeline, "plan");
    const merge = expansion.jobs.find((job) => job.name === "merge")!;
    expect(merge.input.paths).toEqual([]);
    expect(expansion.warnings[0]!.message).toBe(
      "scatter of rule 'call' has no values (config.chromosomes is empty): the rule expands to no jobs, and its gather rule 'merge' receives no scattered inputs",
    );
    expect(expansion.warnings[0]!.suggestion).toBe(`to switch 'merge' off as well, give it when = "config.chromosomes"; fill the list to switch the branch on`);
  });

  it("an empty sample sheet leaves no literal {sample} anywhere and injects an empty samples_list", async () => {
    const sheet = FAN_OUT_CASES.find((fanOutCase) => fanOutCase.name.startsWith("a header-only sample sheet"))!;
    const pipeline = await loadCase(sheet.pipeline, sheet.files);
    expect(pipeline.config.samples_list).toBe("");
    const expansion = expandPipeline(pipeline, "plan");
    expect(expansion.jobs.flatMap((job) => [...job.input.paths, ...job.output.paths]).some((path) => path.includes("{"))).toBe(false);
    expect(expansion.warnings[0]!.message).toBe("rule 'align' expands to no jobs: its {sample}/{group} wildcards range over no samples (sample_groups_file 'samples.tsv' holds none)");
  });

  it("a gather rule switched off itself receives nothing, without an error", async () => {
    const text = `[workflow]\nname = "g"\n\n[[values]]\nname = "v"\nvalues = []\n\n[[rules]]\nname = "call"\noutput = ["c/{chr}.txt"]\nshell = "touch {output}"\nscatter = { variable = "chr", values = ["1"], gather = "merge" }\n\n[[rules]]\nname = "merge"\noutput = ["m/{v}.txt"]\nshell = "cat {input} > {output}"\n`;
    const expansion = expandPipeline(await loadCase(text), "plan");
    expect(expansion.jobs.map((job) => job.name)).toEqual(["call_1"]);
    expect(expansion.warnings.map(place)).toEqual([["merge", 14]]);
  });
});
