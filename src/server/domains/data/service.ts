/**
 * The data helpers: analysis, perception, sample sheets and reference genomes, for one caller. Request
 * paths are confined here (data-roots.ts) before anything is read; the reading itself runs in the engine
 * pool (tasks.ts).
 */
import { DEFAULT_SCAN_LIMITS, type DataAnalysis } from "../../../engine/data/analyze-data.js";
import { REFERENCE_COMPONENTS, type GenomeStatus, type ReferenceComponent } from "../../../engine/data/reference-genomes.js";
import { writeSampleSheet } from "../../../engine/data/sample-sheets.js";
import type { Caller } from "../../caller.js";
import { engineTasks } from "../../engine-pool.js";
import { ServiceError } from "../../errors.js";
import { notInYourFolders, resolveInside, type DataPlaces, type ResolvedPath } from "./data-roots.js";
import { perceiveData, type Perception } from "./perceive.js";
import type { DataTasks } from "./tasks.js";

const runTask = engineTasks<DataTasks>(new URL("./worker.js", import.meta.url));

/** The most a scan may be asked to do: deeper or wider walks are cut to these. */
export const SCAN_CAPS = { maxDepth: 8, maxFiles: 10_000 };

/** The walk a request asks for, within the caps. */
function scanLimits(request: { max_depth?: number; max_files?: number }) {
  return {
    maxDepth: Math.min(request.max_depth ?? DEFAULT_SCAN_LIMITS.maxDepth, SCAN_CAPS.maxDepth),
    maxFiles: Math.min(request.max_files ?? DEFAULT_SCAN_LIMITS.maxFiles, SCAN_CAPS.maxFiles),
  };
}

/** The predecessor's component names, still accepted. */
const COMPONENT_ALIASES: Record<string, ReferenceComponent> = { gtf: "annotation", gff: "annotation", star_index: "star", bwa_index: "bwa", bowtie2_index: "bowtie2", hisat2_index: "hisat2", fasta_index: "fai" };

/** The data helpers of one service. */
export class DataService {
  constructor(
    readonly places: DataPlaces,
    private readonly referenceRoots: string[],
  ) {}

  /** The folders the caller may read, as the caller names them. */
  roots(caller: Caller): { kind: "own" | "data" | "home"; path: string; server_path: string | null }[] {
    const rule = this.places.confinementOf(caller);
    return rule.roots.map((root) => (root.kind === "own" ? { kind: root.kind, path: ".", server_path: caller.admin ? root.real : null } : { kind: root.kind, path: root.real, server_path: root.real }));
  }

  /** Analyses the caller's files (bounded), shown under the paths as given. */
  async analyze(caller: Caller, request: { paths: string[]; max_depth?: number; max_files?: number }): Promise<DataAnalysis> {
    const targets = this.places.resolveAll(this.places.confinementOf(caller), request.paths);
    return this.analyzeResolved(targets, request);
  }

  private analyzeResolved(targets: ResolvedPath[], request: { max_depth?: number; max_files?: number }): Promise<DataAnalysis> {
    return runTask("analyze", { targets, limits: scanLimits(request) }, "analysing the data");
  }

  /** A built-in template filled with the samples and reads of the caller's files (nothing is saved). */
  async fillTemplate(caller: Caller, request: { paths: string[]; template?: string; max_depth?: number; max_files?: number }) {
    const rule = this.places.confinementOf(caller);
    const targets = this.places.resolveAll(rule, request.paths);
    return runTask("fillTemplate", { targets, limits: scanLimits(request), own: rule.own, template: request.template }, "filling the template from the data");
  }

  /** Findings from the files (when paths are given) and the description, with their conflicts. */
  async perceive(caller: Caller, request: { paths?: string[]; description?: string }): Promise<Perception> {
    const paths = request.paths ?? [];
    const analysis = paths.length > 0 ? await this.analyze(caller, { paths }) : null;
    return perceiveData(analysis, request.description ?? "");
  }

  /** Parses a sheet; its files are looked for only inside the caller's folders. */
  async parseSheet(caller: Caller, request: { content: string; base_path?: string }) {
    const rule = this.places.confinementOf(caller);
    let base: string | undefined;
    if (request.base_path !== undefined) {
      base = resolveInside(rule, request.base_path);
      if (base === undefined) throw notInYourFolders(request.base_path);
    }
    return runTask("parseSheet", { content: request.content, rule, base }, "reading the sample sheet");
  }

  /** A sheet written from the analysis of the caller's files. */
  async generateSheet(caller: Caller, request: { paths: string[]; delimiter?: "csv" | "tsv"; max_depth?: number }): Promise<{ content: string; samples_count: number; warnings: string[] }> {
    const analysis = await this.analyze(caller, request);
    const written = analysis.samples.filter((sample) => sample.layout !== "mixed");
    const warnings = [...analysis.warnings];
    for (const sample of analysis.samples) if (sample.layout === "mixed") warnings.push(`sample ${sample.sample} mixes paired and single-end files and was left out of the sheet`);
    if (written.length === 0) throw new ServiceError("DATA_ERROR", `no FASTQ samples found in ${request.paths.join(", ")}`, { suggestion: "name a folder that holds the FASTQ files (POST /api/data/analyze shows what was found)" });
    return { content: writeSampleSheet(written, { delimiter: request.delimiter }), samples_count: written.length, warnings };
  }

  /** One genome in the reference roots: what is there, what is missing and how to get it. */
  async reference(request: { genome: string; components?: string[] }): Promise<{ genome: string; found: string[]; missing: string[]; download_commands: string[]; status: GenomeStatus }> {
    const wanted = (request.components ?? [...REFERENCE_COMPONENTS]).map((name) => {
      const lower = name.trim().toLowerCase();
      const component = COMPONENT_ALIASES[lower] ?? (REFERENCE_COMPONENTS as readonly string[]).find((known) => known === lower);
      if (!component) throw new ServiceError("REF_ERROR", `unknown reference component '${name}'`, { suggestion: `ask for ${REFERENCE_COMPONENTS.join(", ")}` });
      return component as ReferenceComponent;
    });
    const status = await runTask("genome", { roots: this.referenceRoots, genome: request.genome }, "looking for the reference genome");
    const asked = status.components.filter((component) => wanted.includes(component.component));
    return {
      genome: status.genome,
      found: asked.filter((component) => component.present).map((component) => component.path!),
      missing: asked.filter((component) => !component.present).map((component) => component.component),
      download_commands: asked.filter((component) => !component.present && component.command).map((component) => component.command!),
      status,
    };
  }

  /** Every genome of the reference roots, and the well-known builds that are not there. */
  async referenceStatus(): Promise<{ roots: number; installed: (GenomeStatus & { found: string[] })[]; missing: string[]; download_commands: string[] }> {
    const { genomes, absent } = await runTask("referenceStatus", { roots: this.referenceRoots }, "looking for reference genomes");
    const commands = genomes.flatMap((genome) => genome.components.filter((component) => !component.present && component.command).map((component) => component.command!));
    // A build that is not there at all: its FASTA and annotation downloads (the indexes are built from them).
    for (const status of absent) for (const component of status.components) if ((component.component === "fasta" || component.component === "annotation") && component.command) commands.push(component.command);
    return {
      roots: this.referenceRoots.length,
      installed: genomes.map((genome) => ({ ...genome, found: genome.components.filter((component) => component.present).map((component) => component.path!) })),
      missing: absent.map((status) => status.genome),
      download_commands: commands,
    };
  }
}
