/**
 * The data helpers' engine tasks: they read files (a walk of folders, the first bytes of each file, the
 * reference roots), so they run in the engine pool, off the event loop, with its deadline.
 */
import { analyzeData, type DataAnalysis, type ScanLimits } from "../../../engine/data/analyze-data.js";
import { discoverGenomes, genomeStatus, KNOWN_BUILDS, knownBuild, type GenomeStatus } from "../../../engine/data/reference-genomes.js";
import { parseSampleSheet, type ParsedSheet } from "../../../engine/data/sample-sheets.js";
import { templateFromData, type FilledTemplate } from "../../../engine/data/template-from-data.js";
import { isAbsolute, join } from "node:path";
import { EngineError } from "../../../engine/findings.js";
import { displayThrough, resolveInside, type Confinement, type ResolvedPath } from "./data-roots.js";

/** The tasks by name. */
export const tasks = {
  /** Analyses resolved paths; files are shown under the paths the caller gave. */
  analyze(input: { targets: ResolvedPath[]; limits: ScanLimits }): DataAnalysis {
    return analyzeData(input.targets.map((target) => target.real), { limits: input.limits, display: displayThrough(input.targets) });
  },
  /**
   * A template filled from the analysis of resolved paths (the first suggestion when none is named). The
   * pipeline names files where its jobs read them: a data root's by the path given (absolute), the caller's
   * own files by their place on the server (`own`; the engine refuses paths that climb out of the workspace,
   * and the job sandbox shows the owner's files folder at that same path).
   */
  fillTemplate(input: { targets: ResolvedPath[]; limits: ScanLimits; own: string; template?: string }): FilledTemplate & { analysis: DataAnalysis } {
    const analysis = tasks.analyze(input);
    const template = input.template ?? analysis.suggested_workflow?.template;
    if (!template) throw new EngineError("DATA_ERROR", "no template suits these files", { suggestion: "name one with template (GET /api/templates lists them)" });
    const runPath = (shown: string) => (isAbsolute(shown) ? shown : join(input.own, shown));
    return { ...templateFromData(template, analysis, runPath), analysis };
  },
  /** Parses a sheet; its files count as present only inside the caller's folders (relative ones under `base`). */
  parseSheet(input: { content: string; rule: Confinement; base?: string }): ParsedSheet {
    return parseSampleSheet(input.content, { fileExists: (path) => resolveInside(input.rule, path, input.base) !== undefined });
  },
  /** Every genome in the reference roots, and the status of each well-known build that is not among them. */
  referenceStatus(input: { roots: string[] }): { genomes: GenomeStatus[]; absent: GenomeStatus[] } {
    const genomes = input.roots.length > 0 ? discoverGenomes(input.roots) : [];
    const present = new Set(genomes.map((genome) => knownBuild(genome.genome)?.build ?? genome.genome));
    const absent = Object.keys(KNOWN_BUILDS).filter((build) => !present.has(build)).map((build) => genomeStatus(input.roots, build));
    return { genomes, absent };
  },
  /** One genome's status by name. */
  genome(input: { roots: string[]; genome: string }): GenomeStatus {
    return genomeStatus(input.roots, input.genome);
  },
};

/** The task table's type, for typed calls from the service. */
export type DataTasks = typeof tasks;
