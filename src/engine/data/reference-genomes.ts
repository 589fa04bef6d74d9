/**
 * Reference genomes on disk: discovery in reference roots laid out the common ways — iGenomes
 * (`<Species>/<Source>/<build>/Sequence/…`, `Annotation/Genes/genes.gtf`), Ensembl downloads
 * (`<species>/<assembly>/Homo_sapiens.GRCh38.dna.primary_assembly.fa.gz`) and a flat `<genome>/` folder —
 * per genome and component (FASTA with `.fai` and `.dict`, annotation, BWA, Bowtie2, STAR and HISAT2
 * indexes), what is missing, and the command that obtains or builds it: species-correct download URLs for
 * the well-known builds and the index-building command of each aligner.
 */
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { basename, join, relative } from "node:path";

/** The components looked for. */
export const REFERENCE_COMPONENTS = ["fasta", "fai", "dict", "annotation", "bwa", "bowtie2", "star", "hisat2"] as const;
export type ReferenceComponent = (typeof REFERENCE_COMPONENTS)[number];

/** Where a well-known build comes from. */
interface KnownBuild {
  species: string;
  source: "Ensembl" | "UCSC" | "Ensembl Plants";
  fasta: string;
  annotation: string;
  aliases: string[];
}

const ENSEMBL = "https://ftp.ensembl.org/pub/release-112";
const UCSC = "https://hgdownload.soe.ucsc.edu/goldenPath";

/** Well-known builds with downloads from their own species' folders. */
export const KNOWN_BUILDS: Record<string, KnownBuild> = {
  GRCh38: { species: "Homo sapiens", source: "Ensembl", fasta: `${ENSEMBL}/fasta/homo_sapiens/dna/Homo_sapiens.GRCh38.dna.primary_assembly.fa.gz`, annotation: `${ENSEMBL}/gtf/homo_sapiens/Homo_sapiens.GRCh38.112.gtf.gz`, aliases: ["grch38", "hg38-ensembl"] },
  GRCh37: { species: "Homo sapiens", source: "Ensembl", fasta: "https://ftp.ensembl.org/pub/grch37/current/fasta/homo_sapiens/dna/Homo_sapiens.GRCh37.dna.primary_assembly.fa.gz", annotation: "https://ftp.ensembl.org/pub/grch37/current/gtf/homo_sapiens/Homo_sapiens.GRCh37.87.gtf.gz", aliases: ["grch37"] },
  hg38: { species: "Homo sapiens", source: "UCSC", fasta: `${UCSC}/hg38/bigZips/hg38.fa.gz`, annotation: `${UCSC}/hg38/bigZips/genes/hg38.ncbiRefSeq.gtf.gz`, aliases: [] },
  hg19: { species: "Homo sapiens", source: "UCSC", fasta: `${UCSC}/hg19/bigZips/hg19.fa.gz`, annotation: `${UCSC}/hg19/bigZips/genes/hg19.ncbiRefSeq.gtf.gz`, aliases: [] },
  GRCm39: { species: "Mus musculus", source: "Ensembl", fasta: `${ENSEMBL}/fasta/mus_musculus/dna/Mus_musculus.GRCm39.dna.primary_assembly.fa.gz`, annotation: `${ENSEMBL}/gtf/mus_musculus/Mus_musculus.GRCm39.112.gtf.gz`, aliases: ["grcm39"] },
  mm39: { species: "Mus musculus", source: "UCSC", fasta: `${UCSC}/mm39/bigZips/mm39.fa.gz`, annotation: `${UCSC}/mm39/bigZips/genes/mm39.ncbiRefSeq.gtf.gz`, aliases: [] },
  mm10: { species: "Mus musculus", source: "UCSC", fasta: `${UCSC}/mm10/bigZips/mm10.fa.gz`, annotation: `${UCSC}/mm10/bigZips/genes/mm10.ncbiRefSeq.gtf.gz`, aliases: ["grcm38"] },
  GRCz11: { species: "Danio rerio", source: "Ensembl", fasta: `${ENSEMBL}/fasta/danio_rerio/dna/Danio_rerio.GRCz11.dna.primary_assembly.fa.gz`, annotation: `${ENSEMBL}/gtf/danio_rerio/Danio_rerio.GRCz11.112.gtf.gz`, aliases: ["grcz11", "danrer11"] },
  BDGP6: { species: "Drosophila melanogaster", source: "Ensembl", fasta: `${ENSEMBL}/fasta/drosophila_melanogaster/dna/Drosophila_melanogaster.BDGP6.46.dna.toplevel.fa.gz`, annotation: `${ENSEMBL}/gtf/drosophila_melanogaster/Drosophila_melanogaster.BDGP6.46.112.gtf.gz`, aliases: ["bdgp6", "dm6"] },
  WBcel235: { species: "Caenorhabditis elegans", source: "Ensembl", fasta: `${ENSEMBL}/fasta/caenorhabditis_elegans/dna/Caenorhabditis_elegans.WBcel235.dna.toplevel.fa.gz`, annotation: `${ENSEMBL}/gtf/caenorhabditis_elegans/Caenorhabditis_elegans.WBcel235.112.gtf.gz`, aliases: ["wbcel235", "ce11"] },
  "R64-1-1": { species: "Saccharomyces cerevisiae", source: "Ensembl", fasta: `${ENSEMBL}/fasta/saccharomyces_cerevisiae/dna/Saccharomyces_cerevisiae.R64-1-1.dna.toplevel.fa.gz`, annotation: `${ENSEMBL}/gtf/saccharomyces_cerevisiae/Saccharomyces_cerevisiae.R64-1-1.112.gtf.gz`, aliases: ["r64", "saccer3"] },
  TAIR10: { species: "Arabidopsis thaliana", source: "Ensembl Plants", fasta: "https://ftp.ensemblgenomes.ebi.ac.uk/pub/plants/release-59/fasta/arabidopsis_thaliana/dna/Arabidopsis_thaliana.TAIR10.dna.toplevel.fa.gz", annotation: "https://ftp.ensemblgenomes.ebi.ac.uk/pub/plants/release-59/gtf/arabidopsis_thaliana/Arabidopsis_thaliana.TAIR10.59.gtf.gz", aliases: ["tair10"] },
};

/** The well-known build a name stands for (case-insensitive, aliases included). */
export function knownBuild(name: string): { build: string; known: KnownBuild } | undefined {
  const lower = name.trim().toLowerCase();
  for (const [build, known] of Object.entries(KNOWN_BUILDS)) if (build.toLowerCase() === lower || known.aliases.includes(lower)) return { build, known };
  return undefined;
}

/** One component of a genome: where it is, or what to run to get it. */
export interface ComponentStatus {
  component: ReferenceComponent;
  present: boolean;
  path: string | null;
  /** The command that downloads or builds it (null when present, or when nothing can be said). */
  command: string | null;
}

/** One genome found (or asked for). */
export interface GenomeStatus {
  genome: string;
  layout: "igenomes" | "ensembl" | "flat" | "none";
  species: string | null;
  folder: string | null;
  components: ComponentStatus[];
  missing: ReferenceComponent[];
}

/** Finds every genome in the roots (a few levels deep; links are not followed). */
export function discoverGenomes(roots: string[], display: (path: string) => string = (path) => path): GenomeStatus[] {
  const genomes: GenomeStatus[] = [];
  for (const root of roots) {
    for (const species of folders(root)) {
      // iGenomes: <Species>/<Source>/<build>/Sequence
      for (const source of folders(join(root, species))) {
        for (const build of folders(join(root, species, source))) {
          const base = join(root, species, source, build);
          if (isFolder(join(base, "Sequence"))) genomes.push(statusOf(build, "igenomes", base, species.replace(/_/g, " "), display));
        }
      }
      // Ensembl: <species>/<assembly>/ with <Species>.<assembly>.dna…fa(.gz)
      for (const assembly of folders(join(root, species))) {
        const base = join(root, species, assembly);
        if (files(base).some((name) => /\.dna(_sm|_rm)?\.(primary_assembly|toplevel)\.fa(\.gz)?$/.test(name))) genomes.push(statusOf(assembly, "ensembl", base, species.replace(/_/g, " "), display));
      }
      // Flat: <genome>/ with a FASTA inside
      const flat = join(root, species);
      if (files(flat).some((name) => FASTA.test(name)) && !genomes.some((genome) => genome.folder === display(flat))) genomes.push(statusOf(species, "flat", flat, null, display));
    }
  }
  return genomes.sort((a, b) => a.genome.localeCompare(b.genome));
}

/** The status of one genome by name: found in the roots, or wholly missing with the commands to get it. */
export function genomeStatus(roots: string[], genome: string, display: (path: string) => string = (path) => path): GenomeStatus {
  const wanted = knownBuild(genome)?.build.toLowerCase();
  const found = discoverGenomes(roots, display).find((candidate) => candidate.genome.toLowerCase() === genome.trim().toLowerCase() || (wanted !== undefined && knownBuild(candidate.genome)?.build.toLowerCase() === wanted));
  if (found) return found;
  const known = knownBuild(genome);
  const folder = roots[0] ? join(roots[0], known?.build ?? genome) : genome;
  const components = REFERENCE_COMPONENTS.map((component) => ({ component, present: false, path: null, command: commandFor(component, known?.build ?? genome, display(folder), null) }));
  return { genome: known?.build ?? genome, layout: "none", species: known?.known.species ?? null, folder: null, components, missing: [...REFERENCE_COMPONENTS] };
}

const FASTA = /\.(fa|fasta|fna)(\.gz)?$/;

function statusOf(genome: string, layout: GenomeStatus["layout"], base: string, species: string | null, display: (path: string) => string): GenomeStatus {
  const at = (path: string | null) => (path ? display(path) : null);
  const sequence = layout === "igenomes" ? join(base, "Sequence") : base;
  const fastaFolder = layout === "igenomes" ? join(sequence, "WholeGenomeFasta") : base;
  const fasta = first(fastaFolder, (name) => FASTA.test(name) && !name.endsWith(".fai"));
  const annotationFolder = layout === "igenomes" ? join(base, "Annotation", "Genes") : base;
  const annotation = first(annotationFolder, (name) => /\.(gtf|gff3?)(\.gz)?$/.test(name));
  const stem = fasta ? fasta.replace(/\.gz$/, "") : null;
  const indexFolder = (name: string) => (layout === "igenomes" ? join(sequence, name) : base);
  const bwaFolders = layout === "igenomes" ? [join(sequence, "BWAIndex"), join(sequence, "BWAIndex", "version0.6.0")] : [base];
  const bwaSuffixes = [".bwt", ".pac", ".ann", ".amb", ".sa"];
  const found: Record<ReferenceComponent, string | null> = {
    fasta,
    fai: stem && existsSync(`${stem}.fai`) ? `${stem}.fai` : first(fastaFolder, (name) => name.endsWith(".fai")),
    dict: first(fastaFolder, (name) => name.endsWith(".dict")),
    annotation,
    bwa: bwaFolders.map((folder) => indexPrefix(folder, bwaSuffixes)).find((prefix) => prefix !== null) ?? null,
    bowtie2: indexPrefix(indexFolder("Bowtie2Index"), [".1.bt2", ".2.bt2", ".3.bt2", ".4.bt2", ".rev.1.bt2", ".rev.2.bt2"]) ?? indexPrefix(indexFolder("Bowtie2Index"), [".1.bt2l", ".rev.1.bt2l"]),
    star: starIndex(layout === "igenomes" ? join(sequence, "STARIndex") : base),
    hisat2: indexPrefix(indexFolder("HISAT2Index"), [".1.ht2", ".2.ht2"]),
  };
  const known = knownBuild(genome);
  const components = REFERENCE_COMPONENTS.map((component) => ({
    component,
    present: found[component] !== null,
    path: at(found[component]),
    command: found[component] !== null ? null : commandFor(component, known?.build ?? genome, display(base), at(found.fasta), at(found.annotation)),
  }));
  return { genome, layout, species: species ?? known?.known.species ?? null, folder: display(base), components, missing: components.filter((entry) => !entry.present).map((entry) => entry.component) };
}

/** The command that obtains or builds a component (paths as shown to the caller). */
function commandFor(component: ReferenceComponent, genome: string, folder: string, fasta: string | null, annotation: string | null = null): string | null {
  const known = knownBuild(genome)?.known;
  const fa = fasta ?? `${folder}/${genome}.fa`;
  const plain = fa.replace(/\.gz$/, "");
  const gtf = annotation ?? `${folder}/${genome}.gtf`;
  switch (component) {
    case "fasta":
      return known ? `curl -fL ${known.fasta} | gunzip -c > ${folder}/${genome}.fa` : `no download is known for '${genome}': put its FASTA in ${folder}/ (known builds: ${Object.keys(KNOWN_BUILDS).join(", ")})`;
    case "annotation":
      return known ? `curl -fL ${known.annotation} | gunzip -c > ${folder}/${genome}.gtf` : null;
    case "fai":
      return `samtools faidx ${plain}`;
    case "dict":
      return `samtools dict ${plain} -o ${plain.replace(FASTA, "")}.dict`;
    case "bwa":
      return `bwa index -p ${plain.replace(FASTA, "")} ${plain}`;
    case "bowtie2":
      return `bowtie2-build --threads 8 ${plain} ${plain.replace(FASTA, "")}`;
    case "star":
      return `STAR --runMode genomeGenerate --runThreadN 8 --genomeDir ${folder}/star --genomeFastaFiles ${plain} --sjdbGTFfile ${gtf.replace(/\.gz$/, "")} --sjdbOverhang 100  # overhang: read length - 1`;
    case "hisat2":
      return `hisat2-build -p 8 ${plain} ${plain.replace(FASTA, "")}`;
  }
}

function folders(path: string): string[] {
  try {
    return readdirSync(path, { withFileTypes: true }).filter((entry) => entry.isDirectory() && !entry.name.startsWith(".")).map((entry) => entry.name).sort().slice(0, 200);
  } catch {
    return [];
  }
}

function files(path: string): string[] {
  try {
    return readdirSync(path, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
  } catch {
    return [];
  }
}

function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

function first(folder: string, match: (name: string) => boolean): string | null {
  const name = files(folder).find(match);
  return name ? join(folder, name) : null;
}

/** An index is its common prefix with every suffix present. */
function indexPrefix(folder: string, suffixes: string[]): string | null {
  const names = files(folder);
  for (const name of names) {
    if (!name.endsWith(suffixes[0]!)) continue;
    const prefix = name.slice(0, -suffixes[0]!.length);
    if (suffixes.every((suffix) => names.includes(`${prefix}${suffix}`))) return join(folder, prefix);
  }
  return null;
}

function starIndex(folder: string): string | null {
  for (const candidate of [folder, join(folder, "star"), join(folder, "STARIndex")]) {
    const names = files(candidate);
    if (["SA", "SAindex", "Genome"].every((name) => names.includes(name))) return candidate;
  }
  return null;
}

/** A display function that shows paths relative to the roots they are under (for callers who must not see server paths). */
export function displayUnder(roots: string[]): (path: string) => string {
  return (path) => {
    for (const root of roots) {
      const inside = relative(root, path);
      if (!inside.startsWith("..")) return `${basename(root)}/${inside}`.replace(/\/$/, "");
    }
    return basename(path);
  };
}
