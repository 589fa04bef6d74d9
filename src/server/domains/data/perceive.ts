/**
 * Data perception: what is known of a user's data, combining the files' analysis (`file_scan`) with their
 * own description (`user_description`). Every finding says where it comes from and on what evidence (the
 * file names, or the words of the text), with an honest confidence (content evidence high, a name or a
 * word lower), and where the two disagree (the text says single-end, the files are paired) the conflict is
 * reported rather than one silently winning.
 */
import { knownBuild, KNOWN_BUILDS } from "../../../engine/data/reference-genomes.js";
import { suggestTemplates, type DataAnalysis, type TemplateSuggestion } from "../../../engine/data/analyze-data.js";

/** One thing known of the data. */
export interface DataFact {
  field: string;
  value: string | number | boolean | string[];
  confidence: number;
  source: "file_scan" | "user_description";
  evidence: string;
}

/** Two sources that disagree on a field. */
export interface Conflict {
  field: string;
  file_scan: DataFact["value"];
  user_description: DataFact["value"];
  message: string;
}

/** The whole perception. */
export interface Perception {
  /** 0 nothing given, 2 a description only, 3 files analysed (with or without a description). */
  data_level: 0 | 2 | 3;
  findings: DataFact[];
  conflicts: Conflict[];
  warnings: string[];
  suggestions: string[];
  templates: TemplateSuggestion[];
}

const ASSAYS: [RegExp, string][] = [
  [/\b(sc|single[- ]cell)[- ]?rna[- ]?seq\b|\b10x\b|\bscrna\b/i, "scRNA-seq"],
  [/\brna[- ]?seq\b|\btranscriptom\w*|\bmrna\b|\bgene expression\b/i, "RNA-seq"],
  [/\bchip[- ]?seq\b|\bchip\b/i, "ChIP-seq"],
  [/\batac[- ]?seq\b/i, "ATAC-seq"],
  [/\bwgs\b|\bwhole[- ]genome\b/i, "WGS"],
  [/\bwes\b|\bexome\b/i, "WES"],
  [/\bbisulfite\b|\bwgbs\b|\bmethylation\b/i, "bisulfite-seq"],
  [/\b16s\b|\bamplicon\b/i, "amplicon"],
];

const ORGANISMS: [RegExp, string][] = [
  [/\bhuman\b|\bhomo sapiens\b/i, "Homo sapiens"],
  [/\bmouse\b|\bmice\b|\bmus musculus\b/i, "Mus musculus"],
  [/\bzebrafish\b|\bdanio rerio\b/i, "Danio rerio"],
  [/\bfly\b|\bflies\b|\bdrosophila\b/i, "Drosophila melanogaster"],
  [/\bc\. ?elegans\b|\bworms?\b/i, "Caenorhabditis elegans"],
  [/\byeast\b|\bs\. ?cerevisiae\b/i, "Saccharomyces cerevisiae"],
  [/\barabidopsis\b/i, "Arabidopsis thaliana"],
];

const NUMBER_WORDS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, duplicate: 2, triplicate: 3, quadruplicate: 4 };

/** What the description says, each finding with the words it rests on. */
export function describedFindings(description: string): DataFact[] {
  const text = description.trim();
  const findings: DataFact[] = [];
  const said = (field: string, value: DataFact["value"], confidence: number, words: string) => findings.push({ field, value, confidence, source: "user_description", evidence: `"${words}"` });
  const layout = /\b(\d)\s*[x×]\s*(\d{2,3})\s*(bp)?\b/i.exec(text);
  if (layout) {
    said("read_type", layout[1] === "2" ? "paired" : "single", 0.8, layout[0]);
    said("read_length", Number(layout[2]), 0.8, layout[0]);
  } else {
    const paired = /\bpaired[- ]end\b|\bPE\s?\d*\b|\bpaired reads\b/.exec(text) ?? /\bpaired[- ]end\b/i.exec(text);
    const single = /\bsingle[- ]end\b|\bSE\s?\d*\b/.exec(text) ?? /\bsingle[- ]end\b/i.exec(text);
    if (paired && !single) said("read_type", "paired", 0.75, paired[0]);
    else if (single && !paired) said("read_type", "single", 0.75, single[0]);
    const length = /\b(\d{2,3})\s*(bp|nt)\b/i.exec(text) ?? /\b[PS]E\s?(\d{2,3})\b/.exec(text);
    if (length) said("read_length", Number(length[1]), 0.7, length[0]);
  }
  for (const token of text.split(/[^A-Za-z0-9.-]+/)) {
    const build = token.length >= 3 ? knownBuild(token.replace(/\.$/, "")) : undefined;
    if (build && !findings.some((finding) => finding.field === "genome")) {
      said("genome", build.build, 0.85, token);
      said("organism", build.known.species, 0.8, token);
    }
  }
  if (!findings.some((finding) => finding.field === "organism")) {
    for (const [pattern, species] of ORGANISMS) {
      const match = pattern.exec(text);
      if (match) {
        said("organism", species, 0.7, match[0]);
        break;
      }
    }
  }
  for (const [pattern, assay] of ASSAYS) {
    const match = pattern.exec(text);
    if (match) {
      said("assay", assay, 0.8, match[0]);
      break;
    }
  }
  const replicates = /\b(\d{1,2}|two|three|four|five|six)\s+(biological\s+|technical\s+)?replicates?\b/i.exec(text) ?? /\bin\s+(duplicate|triplicate|quadruplicate)\b/i.exec(text) ?? /\bn\s*=\s*(\d{1,2})\b/i.exec(text);
  if (replicates) {
    const count = Number(replicates[1]) || NUMBER_WORDS[replicates[1]!.toLowerCase()];
    if (count) said("replicates", count, 0.7, replicates[0]);
  }
  const versus = /\b([A-Za-z][\w-]*)\s+(?:vs\.?|versus|against)\s+([A-Za-z][\w-]*)\b/i.exec(text);
  if (versus) said("conditions", [versus[1]!, versus[2]!], 0.65, versus[0]);
  else {
    const conditions = /\b(treated|control|knockout|wild[- ]type|tumou?r|normal)\b.*?\b(and|,)\s*(treated|control|knockout|wild[- ]type|tumou?r|normal)\b/i.exec(text);
    if (conditions) said("conditions", [conditions[1]!.toLowerCase(), conditions[3]!.toLowerCase()], 0.6, conditions[0]);
  }
  return findings;
}

/** What the analysis says, each finding naming the files it rests on. */
export function scannedFindings(analysis: DataAnalysis): DataFact[] {
  const findings: DataFact[] = [];
  const names = (paths: string[]) => {
    const shown = paths.slice(0, 6).map((path) => path.split("/").pop()!).join(", ");
    return paths.length > 6 ? `${shown} and ${paths.length - 6} more` : shown;
  };
  const seen = (field: string, value: DataFact["value"], confidence: number, evidence: string) => findings.push({ field, value, confidence, source: "file_scan", evidence });
  seen("files_count", analysis.summary.files, 1, `${analysis.summary.files} file(s) scanned${analysis.truncated ? " (the scan stopped at its limits)" : ""}`);
  seen("total_size", analysis.summary.total_size, 1, "sizes on disk");
  for (const format of analysis.summary.formats_detected) {
    const files = analysis.files.filter((file) => file.format === format);
    const byContent = files.filter((file) => file.detected_by === "content").length;
    seen("format_detected", format, byContent === files.length ? 0.95 : 0.6, `${byContent} of ${files.length} by content: ${names(files.map((file) => file.path))}`);
  }
  const reads = analysis.files.filter((file) => file.format === "fastq" && file.size > 0);
  if (analysis.summary.layout) {
    const paired = reads.filter((file) => file.paired_with);
    seen("read_type", analysis.summary.layout, analysis.summary.layout === "mixed" ? 0.6 : 0.9, analysis.summary.layout === "paired" ? `R1/R2 pairs: ${names(paired.map((file) => file.path))}` : `${names(reads.map((file) => file.path))}`);
  }
  if (analysis.summary.read_length) {
    const { min, max, mean } = analysis.summary.read_length;
    const sampled = reads.filter((file) => file.fastq && file.fastq.records > 0);
    seen("read_length", max, 0.95, `${min === max ? `${max}` : `${min}–${max} (mean ${mean})`} bases in the first records of ${names(sampled.map((file) => file.path))}`);
  }
  if (analysis.summary.quality_encoding) seen("quality_encoding", analysis.summary.quality_encoding, 0.9, "quality characters of the first records");
  if (analysis.samples.length > 0) seen("samples", analysis.samples.map((sample) => sample.sample), 0.85, `sample names from the file names: ${names(analysis.samples.flatMap((sample) => sample.r1))}`);
  const lanes = [...new Set(analysis.samples.flatMap((sample) => sample.lanes))];
  if (lanes.length > 1) seen("lanes", lanes.map(String), 0.9, "L00n in the file names");
  return findings;
}

/** Perceives the data: the analysis (when files were given) and the description, their conflicts, and templates. */
export function perceiveData(analysis: DataAnalysis | null, description: string): Perception {
  const scanned = analysis ? scannedFindings(analysis) : [];
  const described = description.trim() ? describedFindings(description) : [];
  const warnings: string[] = [...(analysis?.warnings ?? [])];
  const conflicts: Conflict[] = [];
  const valueOf = (findings: DataFact[], field: string) => findings.find((finding) => finding.field === field)?.value;
  for (const field of ["read_type", "read_length"]) {
    const fromFiles = valueOf(scanned, field);
    const fromText = valueOf(described, field);
    if (fromFiles === undefined || fromText === undefined || fromFiles === fromText) continue;
    const message = `the description says ${field.replace("_", " ")} ${fromText} but the files are ${fromFiles}; the files' evidence is used`;
    conflicts.push({ field, file_scan: fromFiles, user_description: fromText, message });
    warnings.push(message);
  }
  if (!analysis && !description.trim()) {
    return { data_level: 0, findings: [], conflicts, warnings: ["no data paths and no description were given"], suggestions: ["name your data folder (paths) or describe the data: assay, organism or genome build, read type and length, samples and conditions"], templates: [] };
  }
  // A description alone: the templates are ranked as if its reads were there.
  const basis: Pick<DataAnalysis, "files" | "samples" | "summary"> = analysis ?? {
    files: [],
    samples: [],
    summary: { files: 0, total_size: 0, formats_detected: ["fastq"], paired_end_detected: valueOf(described, "read_type") === "paired", layout: (valueOf(described, "read_type") as "paired" | "single" | undefined) ?? null, read_length: null, quality_encoding: null, strand_specific: null },
  };
  // The assay as recognised ("whole-genome" is WGS) joins the words the templates are ranked by.
  const assay = valueOf(described, "assay");
  const templates = suggestTemplates(basis, assay ? `${description} ${String(assay)}` : description);
  const suggestions = templates.map((template) => `Suggested workflow: ${template.template} (score ${template.score}): ${template.reason}`);
  if (!analysis) suggestions.push("name the data folder too, so formats, pairs and samples are read from the files");
  if (!described.some((finding) => finding.field === "genome") && described.length + scanned.length > 0) suggestions.push(`say which genome build the reads come from (${Object.keys(KNOWN_BUILDS).slice(0, 6).join(", ")}, …)`);
  if (described.length === 0 && description.trim()) warnings.push("nothing in the description was recognised (assay, organism, genome build, read type or length, replicates, conditions)");
  return { data_level: analysis ? 3 : 2, findings: [...scanned, ...described], conflicts, warnings, suggestions, templates };
}
