/**
 * The data helpers' engine tasks: they read files (a walk of folders, the first bytes of each file, the
 * reference roots), so they run in the engine pool, off the event loop, with its deadline.
 */
import { analyzeData, type DataAnalysis, type ScanLimits } from "../../../engine/data/analyze-data.js";
import { discoverGenomes, genomeStatus, KNOWN_BUILDS, knownBuild, type GenomeStatus } from "../../../engine/data/reference-genomes.js";
import { parseSampleSheet, type ParsedSheet } from "../../../engine/data/sample-sheets.js";
import { templateFromData, type FilledTemplate } from "../../../engine/data/template-from-data.js";
import { isAbsolute } from "node:path";
import { EngineError } from "../../../engine/findings.js";
import { displayThrough, resolveInside, type Confinement, type ResolvedPath } from "./data-roots.js";

/** The tasks by name. */
export const tasks = {
  /** Analyses resolved paths; files are shown under the paths the caller gave. */
  analyze(input: { targets: ResolvedPath[]; limits: ScanLimits }): DataAnalysis {
    return analyzeData(input.targets.map((target) => target.real), { limits: input.limits, display: displayThrough(input.targets) });
  },
  /**
   * A template filled from the analysis of resolved paths (the first suggestion when none is named). Runs
   * read files by server path: a data root's as given (absolute), the caller's own ones two folders above
   * the run's workspace (`users/<id>/pipelines/<pipeline>/` and `users/<id>/runs/<run>/` sit beside
   * `users/<id>/files/`), so no server path of the own folder is written into the pipeline.
   */
  fillTemplate(input: { targets: ResolvedPath[]; limits: ScanLimits; template?: string }): FilledTemplate & { analysis: DataAnalysis } {
    const analysis = tasks.analyze(input);
    const template = input.template ?? analysis.suggested_workflow?.template;
    if (!template) throw new EngineError("DATA_ERROR", "no template suits these files", { suggestion: "name one with template (GET /api/templates lists them)" });
    const runPath = (shown: string) => (isAbsolute(shown) ? shown : `../../files/${shown}`);
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
