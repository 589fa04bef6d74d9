/**
 * Curated domain knowledge for the AI: the common kinds of sequencing analysis, each with its usual steps in
 * order, the tools per step (package names of the package index where one exists), inputs, references, key
 * parameters, QC and the pitfalls a reviewer would flag. Looked up by keyword and synonym; also ranks the
 * built-in templates against an intent for the "Try the <template> template" hint. Pure and deterministic.
 */
import { stem } from "./search-words.js";

/** One step of an analysis, in order. */
export interface AnalysisStep {
  step: string;
  purpose: string;
  /** Package names (as in the package index), first the usual choice. */
  tools: string[];
}

/** One kind of analysis. */
export interface AnalysisKind {
  id: string;
  title: string;
  /** Words and phrases people use for it (lowercase). */
  synonyms: string[];
  steps: AnalysisStep[];
  inputs: string[];
  references: string[];
  key_parameters: string[];
  qc: string[];
  pitfalls: string[];
  /** Built-in templates (ids) that start this kind of analysis. */
  templates: string[];
}

/** An analysis kind found by a lookup, with how well it matched. */
export interface DomainHit extends AnalysisKind {
  score: number;
}

/** Longest query read. */
export const MAX_DOMAIN_QUERY_CHARS = 500;
/** Each hit is a couple of kilobytes; three is enough for an ambiguous ask and keeps a tool answer small. */
const MAX_DOMAIN_HITS = 3;

/** The analyses the AI knows about. */
export const ANALYSIS_KINDS: readonly AnalysisKind[] = [
  {
    id: "bulk-rnaseq-quantification",
    title: "Bulk RNA-seq quantification",
    synonyms: ["rna-seq", "rnaseq", "rna seq", "transcriptome", "gene expression", "expression quantification", "gene counts", "count matrix", "transcript quantification", "mrna"],
    steps: [
      { step: "read QC and trimming", purpose: "adapter and quality trimming with a per-sample QC report", tools: ["fastp", "trim-galore", "fastqc"] },
      { step: "spliced alignment", purpose: "align reads to the genome, splice-aware", tools: ["star", "hisat2"] },
      { step: "alignment QC", purpose: "strandedness, gene-body coverage, duplication, rRNA", tools: ["rseqc", "qualimap", "bioconductor-dupradar", "samtools"] },
      { step: "gene counting", purpose: "reads or read pairs per gene into one matrix", tools: ["subread", "htseq"] },
      { step: "transcript quantification", purpose: "alignment-free abundance per transcript (alternative or complement to counting)", tools: ["salmon", "kallisto", "rsem"] },
      { step: "gene-level summary", purpose: "aggregate transcript estimates to genes", tools: ["bioconductor-tximport", "bioconductor-tximeta"] },
      { step: "QC report", purpose: "one report across steps and samples", tools: ["multiqc"] },
    ],
    inputs: ["paired- or single-end FASTQ per sample (raw/{sample}_R1.fastq.gz, raw/{sample}_R2.fastq.gz)", "a sample sheet or [[sample_groups]] with conditions"],
    references: ["genome FASTA", "gene annotation GTF matching the genome build and chromosome naming", "STAR or HISAT2 index built from that FASTA+GTF", "salmon/kallisto transcriptome index (ideally with decoys)"],
    key_parameters: ["strandedness (featureCounts -s 0/1/2, salmon --libType A or explicit)", "paired-end counting (featureCounts -p --countReadPairs)", "STAR --sjdbOverhang = read length - 1 when building the index", "minimum read length after trimming"],
    qc: ["fastp/FastQC per sample", "STAR Log.final.out uniquely mapped %", "featureCounts .summary assigned %", "RSeQC infer_experiment strandedness", "MultiQC over everything"],
    pitfalls: [
      "wrong strandedness setting silently halves or zeroes counts — check infer_experiment before trusting counts",
      "GTF and genome from different builds or with different chromosome names (chr1 vs 1)",
      "counting single-end style on paired-end data (missing -p) double counts fragments",
      "STAR needs ~32 GB RAM for a human genome index; give the rule memory",
      "dropping the MultiQC/QC steps to save time hides failed samples",
    ],
    templates: ["rnaseq-quant"],
  },
  {
    id: "differential-expression",
    title: "Differential expression",
    synonyms: ["differential expression", "differentially expressed", "deg", "degs", "de analysis", "deseq2", "edger", "limma", "voom", "fold change", "treated vs control", "contrast"],
    steps: [
      { step: "count matrix", purpose: "gene counts or tximport-summarised estimates for all samples", tools: ["subread", "salmon", "bioconductor-tximport"] },
      { step: "sample QC", purpose: "PCA, sample distances, outliers, library sizes", tools: ["bioconductor-deseq2", "r-base"] },
      { step: "model fit and testing", purpose: "negative-binomial GLM with the design formula; contrasts", tools: ["bioconductor-deseq2", "bioconductor-edger", "bioconductor-limma"] },
      { step: "shrinkage and reporting", purpose: "log-fold-change shrinkage, MA and volcano plots, result tables", tools: ["bioconductor-deseq2", "r-base"] },
    ],
    inputs: ["raw (unnormalised) integer counts per gene and sample", "sample metadata with condition and batch columns"],
    references: ["gene annotation (ids to names)"],
    key_parameters: ["design formula (e.g. ~ batch + condition)", "reference level of the condition", "adjusted p-value threshold (padj < 0.05) and fold-change threshold", "independent filtering of low counts"],
    qc: ["PCA and sample-distance heatmap", "dispersion plot", "p-value histogram", "number of DE genes per contrast"],
    pitfalls: [
      "feeding TPM/FPKM or normalised values to DESeq2/edgeR instead of raw counts",
      "no biological replicates (n=1 per group) — dispersion cannot be estimated",
      "batch confounded with condition cannot be corrected by the design",
      "reporting unadjusted p-values",
    ],
    templates: ["rnaseq-quant"],
  },
  {
    id: "germline-short-variants",
    title: "Germline short variants (SNVs and indels)",
    synonyms: ["germline", "variant calling", "snp", "snps", "snv", "indel", "indels", "wgs", "wes", "whole genome", "whole exome", "exome", "haplotypecaller", "gvcf", "joint genotyping", "dna-seq", "resequencing"],
    steps: [
      { step: "read QC and trimming", purpose: "adapter trimming and QC", tools: ["fastp", "fastqc"] },
      { step: "alignment", purpose: "align to the reference with read groups (-R '@RG\\tID:..\\tSM:..')", tools: ["bwa-mem2", "bwa"] },
      { step: "sort and mark duplicates", purpose: "coordinate sort, mark PCR/optical duplicates", tools: ["samtools", "gatk4", "picard", "sambamba"] },
      { step: "base quality recalibration", purpose: "BQSR with known sites (BaseRecalibrator, ApplyBQSR)", tools: ["gatk4"] },
      { step: "per-sample calling", purpose: "HaplotypeCaller -ERC GVCF per sample", tools: ["gatk4", "deepvariant", "freebayes"] },
      { step: "joint genotyping", purpose: "CombineGVCFs or GenomicsDBImport, then GenotypeGVCFs", tools: ["gatk4"] },
      { step: "filtering", purpose: "VQSR for large cohorts, hard filters otherwise", tools: ["gatk4", "bcftools"] },
      { step: "annotation", purpose: "gene consequences and population frequencies", tools: ["ensembl-vep", "snpeff"] },
      { step: "QC report", purpose: "coverage and variant statistics", tools: ["mosdepth", "bcftools", "multiqc"] },
    ],
    inputs: ["paired-end FASTQ per sample", "target intervals BED for exomes/panels"],
    references: ["genome FASTA with .fai and .dict", "bwa-mem2 index", "known sites VCFs (dbSNP, Mills indels) for BQSR", "VEP cache or snpEff database of the same build"],
    key_parameters: ["read group with SM = sample name", "-L intervals for exomes (and --interval-padding)", "-ERC GVCF", "hard-filter thresholds (QD, FS, MQ, SOR)"],
    qc: ["mapping rate and duplicate %", "mean coverage and % bases ≥20x over targets (mosdepth)", "Ti/Tv ratio (~2.0-2.1 WGS, ~3 exome)", "het/hom ratio", "MultiQC"],
    pitfalls: [
      "missing or identical read groups — GATK refuses or merges samples",
      "reference FASTA lacking .fai/.dict, or a different build than known sites",
      "calling exomes genome-wide without -L intervals",
      "VQSR on too few samples (use hard filters for small cohorts)",
      "joint genotyping skipped: per-sample VCFs cannot be merged reliably",
    ],
    templates: ["germline-variants", "scatter-gather", "conditional-branches"],
  },
  {
    id: "somatic-tumor-normal",
    title: "Somatic variants, tumour–normal",
    synonyms: ["somatic", "tumor", "tumour", "tumor-normal", "tumour-normal", "cancer", "mutect2", "matched normal", "paired tumor", "oncology", "mutations", "pon"],
    steps: [
      { step: "alignment and preprocessing per sample", purpose: "align, sort, mark duplicates, BQSR for tumour and normal alike", tools: ["bwa-mem2", "samtools", "gatk4"] },
      { step: "somatic calling per pair", purpose: "Mutect2 with tumour and normal (-normal <SM>), germline resource and panel of normals", tools: ["gatk4", "strelka", "vardict"] },
      { step: "contamination and orientation", purpose: "GetPileupSummaries, CalculateContamination, LearnReadOrientationModel", tools: ["gatk4"] },
      { step: "filtering", purpose: "FilterMutectCalls, then keep PASS", tools: ["gatk4", "bcftools"] },
      { step: "annotation", purpose: "consequences, cancer databases", tools: ["ensembl-vep", "snpeff"] },
      { step: "copy number and structural variants (optional)", purpose: "CNV and SV calls", tools: ["cnvkit", "manta", "delly"] },
    ],
    inputs: ["tumour and normal FASTQ or BAM per patient", "[[pairs]] (experiment = tumour, control = normal) or a pairs_file"],
    references: ["genome FASTA + index + dict", "germline resource (gnomAD AF-only)", "panel of normals", "common biallelic sites for contamination"],
    key_parameters: ["-normal must be the normal's SM read-group name", "--germline-resource and --panel-of-normals", "--f1r2-tar-gz for FFPE/orientation bias", "intervals for exome/panel"],
    qc: ["tumour and normal coverage", "contamination estimate", "sample swap check (tumour and normal from the same patient)", "number of PASS calls"],
    pitfalls: [
      "tumour and normal swapped, or from different patients",
      "running tumour-only without a panel of normals floods germline calls",
      "skipping FilterMutectCalls (raw Mutect2 output is unfiltered)",
      "different preprocessing for tumour and normal",
    ],
    templates: ["tumor-normal"],
  },
  {
    id: "chip-seq",
    title: "ChIP-seq peak calling",
    synonyms: ["chip-seq", "chipseq", "chip seq", "chromatin immunoprecipitation", "histone", "transcription factor binding", "peaks", "peak calling", "cut&run", "cut and run", "cut&tag"],
    steps: [
      { step: "read QC and trimming", purpose: "adapters and quality", tools: ["fastp", "trim-galore", "fastqc"] },
      { step: "alignment", purpose: "short-read alignment", tools: ["bowtie2", "bwa", "chromap"] },
      { step: "filtering", purpose: "MAPQ filter, remove duplicates and blacklisted regions", tools: ["samtools", "picard", "bedtools"] },
      { step: "fingerprint and correlation QC", purpose: "enrichment strength and replicate agreement", tools: ["deeptools"] },
      { step: "peak calling", purpose: "treatment vs input control; narrow for TFs, broad for histone marks", tools: ["macs2", "macs3", "genrich"] },
      { step: "replicate consistency", purpose: "IDR or overlap of replicate peaks", tools: ["idr", "bedtools"] },
      { step: "tracks and annotation", purpose: "bigWig coverage, motifs, nearest genes", tools: ["deeptools", "homer"] },
    ],
    inputs: ["FASTQ per ChIP sample and per input/IgG control", "pairing of each ChIP with its control"],
    references: ["genome FASTA and aligner index", "ENCODE blacklist BED", "effective genome size"],
    key_parameters: ["macs2 -g effective genome size, -q 0.01/0.05", "--broad for histone marks", "-f BAMPE for paired-end", "MAPQ threshold (e.g. -q 30)"],
    qc: ["FRiP (fraction of reads in peaks)", "deepTools plotFingerprint", "NSC/RSC cross-correlation", "duplicate rate", "peak counts per replicate"],
    pitfalls: [
      "calling peaks without the input control",
      "not removing blacklisted regions and duplicates",
      "narrow-peak mode for broad histone marks",
      "wrong effective genome size for the organism",
    ],
    templates: [],
  },
  {
    id: "atac-seq",
    title: "ATAC-seq chromatin accessibility",
    synonyms: ["atac-seq", "atacseq", "atac seq", "atac", "chromatin accessibility", "open chromatin", "accessible chromatin", "tn5"],
    steps: [
      { step: "read QC and trimming", purpose: "Nextera/Tn5 adapters", tools: ["fastp", "cutadapt", "fastqc"] },
      { step: "alignment", purpose: "paired-end alignment with long max fragment (-X 2000)", tools: ["bowtie2", "chromap"] },
      { step: "filtering", purpose: "remove mitochondrial reads, duplicates, low MAPQ, blacklist", tools: ["samtools", "picard", "bedtools"] },
      { step: "Tn5 shift and fragments", purpose: "shift +4/-5 bp; fragment size distribution", tools: ["deeptools"] },
      { step: "peak calling", purpose: "no control; paired-end fragments", tools: ["macs2", "macs3", "genrich"] },
      { step: "tracks and QC", purpose: "bigWig, TSS enrichment", tools: ["deeptools", "multiqc"] },
    ],
    inputs: ["paired-end FASTQ per sample"],
    references: ["genome FASTA and bowtie2 index", "blacklist BED", "TSS annotation"],
    key_parameters: ["bowtie2 -X 2000", "macs2 -f BAMPE --nomodel (or --shift -100 --extsize 200 for single-end)", "mitochondrial chromosome name (chrM vs MT)"],
    qc: ["TSS enrichment score", "fragment size periodicity (nucleosome ladder)", "% mitochondrial reads", "FRiP"],
    pitfalls: [
      "keeping mitochondrial reads (often 20–50% of reads)",
      "single-end peak calling mode on paired-end data",
      "no Tn5 shift for footprinting analyses",
    ],
    templates: [],
  },
  {
    id: "single-cell-rnaseq",
    title: "Single-cell RNA-seq",
    synonyms: ["single-cell", "single cell", "scrna-seq", "scrnaseq", "scrna", "10x", "chromium", "droplet", "cell clustering", "umap", "cellranger", "starsolo", "snrna-seq", "single nucleus"],
    steps: [
      { step: "quantification", purpose: "barcode and UMI demultiplexing, alignment, cell × gene matrix", tools: ["cellranger", "star", "alevin-fry", "kb-python"] },
      { step: "ambient RNA and empty droplets", purpose: "remove background counts, call cells", tools: ["cellbender"] },
      { step: "cell QC", purpose: "filter cells by genes, UMIs, % mitochondrial; doublets", tools: ["scanpy", "r-seurat"] },
      { step: "normalisation and features", purpose: "normalise, highly variable genes, PCA", tools: ["scanpy", "r-seurat"] },
      { step: "integration (several samples)", purpose: "batch correction", tools: ["scvi-tools", "r-seurat", "scanpy"] },
      { step: "clustering and embedding", purpose: "neighbours graph, Leiden clusters, UMAP", tools: ["scanpy", "r-seurat"] },
      { step: "markers and annotation", purpose: "marker genes per cluster, cell types", tools: ["scanpy", "r-seurat"] },
    ],
    inputs: ["FASTQ per library with the barcode read (R1) and cDNA read (R2)", "chemistry / kit version"],
    references: ["Cell Ranger reference or STAR index with GTF", "barcode whitelist for the chemistry"],
    key_parameters: ["chemistry and expected cell number", "QC thresholds (min genes, max % mito)", "number of PCs and clustering resolution"],
    qc: ["estimated cells, median genes per cell, sequencing saturation", "knee plot", "% mitochondrial per cell", "doublet rate"],
    pitfalls: [
      "wrong chemistry or whitelist — most barcodes unassigned",
      "filtering thresholds copied from another tissue",
      "integrating away real biology by over-correcting batches",
      "treating cells as independent replicates in differential expression (use pseudobulk)",
    ],
    templates: [],
  },
  {
    id: "amplicon-16s",
    title: "Amplicon / 16S rRNA microbiome",
    synonyms: ["16s", "amplicon", "microbiome", "metabarcoding", "its", "rrna gene", "asv", "otu", "qiime", "qiime2", "dada2", "taxonomic profiling", "microbial community"],
    steps: [
      { step: "primer removal", purpose: "trim primers and adapters", tools: ["cutadapt"] },
      { step: "read QC", purpose: "quality profiles to choose truncation lengths", tools: ["fastqc", "multiqc"] },
      { step: "denoising", purpose: "exact sequence variants (ASVs), merge pairs, remove chimeras", tools: ["bioconductor-dada2", "qiime2", "vsearch"] },
      { step: "taxonomy", purpose: "classify ASVs against a reference database", tools: ["qiime2", "bioconductor-dada2"] },
      { step: "phylogeny", purpose: "alignment and tree for phylogenetic diversity", tools: ["mafft", "fasttree", "iqtree"] },
      { step: "diversity", purpose: "alpha and beta diversity, rarefaction", tools: ["qiime2"] },
    ],
    inputs: ["demultiplexed paired-end FASTQ per sample", "sample metadata", "primer sequences"],
    references: ["SILVA or Greengenes2 (16S) / UNITE (ITS) classifier for the amplified region"],
    key_parameters: ["truncation lengths (trunc-len-f/r) keeping enough overlap to merge", "primer sequences", "rarefaction depth"],
    qc: ["reads retained per step (filtered, denoised, merged, non-chimeric)", "rarefaction curves", "negative controls"],
    pitfalls: [
      "primers left on the reads inflate ASVs",
      "truncating so much that read pairs no longer overlap",
      "a classifier trained on a different region or primer pair",
      "ignoring negative controls and contaminants",
    ],
    templates: [],
  },
  {
    id: "methylation-bisulfite",
    title: "DNA methylation (bisulfite: WGBS, RRBS, EM-seq)",
    synonyms: ["methylation", "bisulfite", "wgbs", "rrbs", "em-seq", "emseq", "methylseq", "cpg", "5mc", "epigenetic", "bismark"],
    steps: [
      { step: "trimming", purpose: "adapters and bisulfite-specific end trimming (--rrbs for RRBS)", tools: ["trim-galore", "fastp"] },
      { step: "genome preparation", purpose: "bisulfite-converted index", tools: ["bismark", "bwameth"] },
      { step: "alignment", purpose: "bisulfite-aware alignment", tools: ["bismark", "bwameth"] },
      { step: "deduplication", purpose: "remove PCR duplicates (not for RRBS)", tools: ["bismark", "picard"] },
      { step: "methylation extraction", purpose: "per-CpG methylation calls and M-bias", tools: ["bismark", "methyldackel"] },
      { step: "QC report", purpose: "conversion rate, M-bias, coverage", tools: ["qualimap", "multiqc"] },
    ],
    inputs: ["FASTQ per sample", "library type (directional, non-directional, PBAT)"],
    references: ["genome FASTA", "bisulfite index from bismark_genome_preparation", "spike-in (lambda) sequence for conversion rate"],
    key_parameters: ["library directionality", "--rrbs trimming", "M-bias based ignore lengths", "minimum CpG coverage"],
    qc: ["bisulfite conversion rate (>99%)", "M-bias plot", "CpG coverage", "mapping efficiency"],
    pitfalls: [
      "deduplicating RRBS data (fragments start at the same MspI sites)",
      "wrong directionality setting halves mapping",
      "not trimming M-bias at read ends",
    ],
    templates: [],
  },
  {
    id: "genome-assembly",
    title: "De novo genome assembly",
    synonyms: ["assembly", "de novo", "assemble", "genome assembly", "contigs", "scaffolds", "bacterial genome", "hifi", "metagenome assembly", "annotation"],
    steps: [
      { step: "read QC", purpose: "trimming (short reads), length/quality stats (long reads)", tools: ["fastp", "nanoplot"] },
      { step: "assembly", purpose: "contigs from reads", tools: ["spades", "megahit", "flye", "hifiasm", "canu"] },
      { step: "polishing", purpose: "fix errors with reads", tools: ["medaka"] },
      { step: "assessment", purpose: "contiguity and completeness", tools: ["quast", "busco"] },
      { step: "annotation", purpose: "genes and features", tools: ["prokka"] },
    ],
    inputs: ["short reads, long reads, or both", "expected genome size"],
    references: ["BUSCO lineage dataset", "optionally a related reference for QUAST"],
    key_parameters: ["read type (--nano-raw, --nano-hq, --pacbio-hifi for Flye)", "expected genome size", "k-mer sizes (SPAdes)"],
    qc: ["N50, number of contigs, total length", "BUSCO completeness and duplication", "read mapping back to the assembly"],
    pitfalls: [
      "contamination assembled as part of the genome",
      "wrong read-type setting for the long-read technology",
      "judging an assembly by N50 alone",
    ],
    templates: [],
  },
  {
    id: "long-read-alignment",
    title: "Long-read alignment and variant calling",
    synonyms: ["long read", "long-read", "long reads", "nanopore", "ont", "pacbio", "hifi", "minimap2", "structural variants", "sv", "ccs"],
    steps: [
      { step: "read QC", purpose: "read length and quality distributions", tools: ["nanoplot"] },
      { step: "alignment", purpose: "platform-specific presets", tools: ["minimap2", "pbmm2"] },
      { step: "sort and index", purpose: "coordinate-sorted indexed BAM", tools: ["samtools"] },
      { step: "small variants", purpose: "SNVs and indels", tools: ["deepvariant", "medaka"] },
      { step: "structural variants", purpose: "deletions, insertions, inversions", tools: ["sniffles"] },
      { step: "phasing", purpose: "haplotype-resolved variants", tools: ["whatshap"] },
      { step: "coverage QC", purpose: "depth", tools: ["mosdepth"] },
    ],
    inputs: ["FASTQ or unaligned BAM per sample", "sequencing platform and chemistry"],
    references: ["genome FASTA (minimap2 index .mmi optional)", "tandem-repeat BED for SV calling"],
    key_parameters: ["minimap2 -x map-ont / map-hifi / map-pb (splice for cDNA)", "-a for SAM output with MD tags (--MD)", "model matching the basecaller for medaka/DeepVariant"],
    qc: ["read N50 and mean quality", "mapping rate", "mean depth"],
    pitfalls: [
      "the wrong minimap2 preset for the platform",
      "a variant-calling model that does not match the basecaller version",
      "forgetting -a (minimap2 writes PAF by default)",
    ],
    templates: [],
  },
];

function normalise(text: string): string {
  return ` ${text.toLowerCase().replace(/[^a-z0-9&+]+/g, " ").trim()} `;
}

function words(text: string): string[] {
  return normalise(text).trim().split(" ").filter((word) => word.length >= 2);
}

/** Analyses matching a query (synonyms, title words, tool names), best first; at most three, weak ones dropped. */
export function lookupDomain(query: string): DomainHit[] {
  const text = normalise(typeof query === "string" ? query.slice(0, MAX_DOMAIN_QUERY_CHARS) : "");
  const queryStems = new Set(words(text).map(stem));
  if (queryStems.size === 0) return [];
  const hits: DomainHit[] = [];
  for (const kind of ANALYSIS_KINDS) {
    let score = 0;
    // A whole synonym phrase in the query is the strongest signal ("tumor-normal", "single cell").
    for (const synonym of kind.synonyms) if (text.includes(normalise(synonym))) score += 10 + normalise(synonym).trim().split(" ").length;
    for (const word of new Set(words(kind.title))) if (word.length >= 4 && queryStems.has(stem(word))) score += 3;
    const tools = new Set(kind.steps.flatMap((step) => step.tools));
    for (const tool of tools) if (text.includes(normalise(tool))) score += 2;
    if (score > 0) hits.push({ ...kind, score });
  }
  hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  // Weak matches (a shared tool name) beside a strong one are noise, not alternatives.
  const best = hits[0]?.score ?? 0;
  return hits.filter((hit) => hit.score * 3 >= best).slice(0, MAX_DOMAIN_HITS);
}

const TEMPLATE_STOP_WORDS = new Set(["a", "an", "and", "for", "from", "in", "of", "on", "one", "the", "to", "with", "each", "every", "that", "this", "file", "pipeline", "rule", "rules", "run", "step", "steps", "per", "my", "some", "want", "need", "please", "make", "build", "write", "seq"]);

function templateWords(text: string): Set<string> {
  return new Set(words(text).filter((word) => !TEMPLATE_STOP_WORDS.has(word)).map(stem));
}

/**
 * Built-in templates ranked against an intent: shared words between the intent and each template's name
 * (counted twice) and description, plus the templates the intent's analysis kind lists. Only templates that
 * share something are returned; ties are broken by name, so the order is stable.
 */
export function matchTemplates(intent: string, templates: ReadonlyArray<{ name: string; description: string }>): Array<{ name: string; score: number }> {
  const intentWords = templateWords(typeof intent === "string" ? intent.slice(0, MAX_DOMAIN_QUERY_CHARS) : "");
  if (intentWords.size === 0) return [];
  const analysis = lookupDomain(intent)[0];
  const results: Array<{ name: string; score: number }> = [];
  for (const template of templates) {
    let score = 0;
    const nameWords = templateWords(template.name.replace(/[-_]/g, " "));
    const descriptionWords = templateWords(template.description);
    for (const word of intentWords) {
      if (nameWords.has(word)) score += 2;
      if (descriptionWords.has(word)) score += 1;
    }
    if (analysis?.templates.includes(template.name)) score += 3;
    if (score > 0) results.push({ name: template.name, score });
  }
  results.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return results;
}
