/**
 * A hand-written table of well-known bioinformatics tools: what each does in one line, and the program names
 * its package puts on the PATH (so a rule's command can be matched to the package that provides it). Keys are
 * package names as Bioconda / conda-forge spell them; aliases map other spellings (container image names,
 * program names) to those keys.
 */

/** One tool's entry: a one-line summary and the commands its package provides. */
export interface ToolSummary {
  summary: string;
  /** Programs the package installs, as written in shell commands (case kept: `STAR`, `featureCounts`). */
  commands: string[];
}

/** The tools the AI is most often asked about, keyed by package name. */
export const TOOL_SUMMARIES: Readonly<Record<string, ToolSummary>> = {
  // Read QC and trimming
  fastqc: { summary: "Quality-control report for raw sequencing reads (per-base quality, GC, adapters, duplication)", commands: ["fastqc"] },
  fastp: { summary: "All-in-one FASTQ preprocessor: adapter and quality trimming, filtering and a QC report (JSON/HTML)", commands: ["fastp"] },
  multiqc: { summary: "Aggregates the QC and log outputs of many tools and samples into one HTML report", commands: ["multiqc"] },
  trimmomatic: { summary: "Adapter and quality trimmer for Illumina reads (sliding-window trimming, paired-end aware)", commands: ["trimmomatic"] },
  cutadapt: { summary: "Removes adapter sequences, primers and poly-A tails from reads; also quality trimming", commands: ["cutadapt"] },
  "trim-galore": { summary: "Wrapper around cutadapt and FastQC for adapter/quality trimming, with RRBS and bisulfite modes", commands: ["trim_galore"] },
  fq: { summary: "Fast FASTQ validation, subsampling and linting of read files", commands: ["fq"] },
  "fastq-screen": { summary: "Screens reads against several genomes to detect contamination", commands: ["fastq_screen"] },
  seqkit: { summary: "Fast toolkit for FASTA/FASTQ manipulation: stats, subsequence, filtering, conversion", commands: ["seqkit"] },
  seqtk: { summary: "Lightweight FASTA/FASTQ processing: subsampling, trimming, format conversion", commands: ["seqtk"] },
  "umi_tools": { summary: "Extracts, groups and deduplicates reads by unique molecular identifiers (UMIs)", commands: ["umi_tools"] },
  nanoplot: { summary: "Plots and statistics for long-read (Nanopore/PacBio) sequencing runs", commands: ["NanoPlot"] },
  "sra-tools": { summary: "NCBI SRA toolkit: downloads runs and converts them to FASTQ (prefetch, fasterq-dump)", commands: ["prefetch", "fasterq-dump", "fastq-dump"] },

  // Short-read aligners
  bwa: { summary: "Burrows-Wheeler aligner for short DNA reads against a reference genome (bwa mem)", commands: ["bwa"] },
  "bwa-mem2": { summary: "Faster drop-in successor of bwa mem for aligning short DNA reads to a reference genome", commands: ["bwa-mem2"] },
  bowtie2: { summary: "Fast gapped aligner for short reads, common for ChIP-seq, ATAC-seq and bisulfite (via Bismark)", commands: ["bowtie2", "bowtie2-build"] },
  bowtie: { summary: "Ungapped short-read aligner for very short reads (small RNA, legacy ChIP-seq)", commands: ["bowtie", "bowtie-build"] },
  star: { summary: "Spliced aligner for RNA-seq reads against a genome (STAR), also gene counts and STARsolo single-cell", commands: ["STAR"] },
  hisat2: { summary: "Memory-efficient spliced aligner for RNA-seq reads against a genome", commands: ["hisat2", "hisat2-build"] },
  chromap: { summary: "Ultrafast aligner and preprocessor for ChIP-seq, ATAC-seq and Hi-C reads", commands: ["chromap"] },
  bwameth: { summary: "Aligner for bisulfite-converted reads built on bwa mem (bwa-meth)", commands: ["bwameth.py"] },
  bismark: { summary: "Bisulfite read aligner and methylation caller (bowtie2/HISAT2 based) for WGBS and RRBS", commands: ["bismark", "bismark_genome_preparation", "bismark_methylation_extractor", "deduplicate_bismark"] },

  // Long reads
  minimap2: { summary: "Versatile aligner for long reads (Nanopore, PacBio) and assembly-to-reference alignment; also spliced", commands: ["minimap2"] },
  pbmm2: { summary: "PacBio wrapper of minimap2 that aligns native PacBio BAM reads", commands: ["pbmm2"] },
  sniffles: { summary: "Structural-variant caller for long-read alignments", commands: ["sniffles"] },
  medaka: { summary: "Consensus polishing and variant calling from Nanopore reads with neural networks", commands: ["medaka", "medaka_consensus"] },
  flye: { summary: "De novo assembler for long, error-prone reads (Nanopore, PacBio CLR/HiFi)", commands: ["flye"] },
  hifiasm: { summary: "Haplotype-resolved de novo assembler for PacBio HiFi reads", commands: ["hifiasm"] },
  canu: { summary: "De novo assembler for noisy long reads with read correction and trimming", commands: ["canu"] },

  // Assembly and annotation
  spades: { summary: "De novo assembler for bacterial and small genomes from short reads (also metaSPAdes, rnaSPAdes)", commands: ["spades.py", "metaspades.py"] },
  megahit: { summary: "Memory-efficient de novo assembler for metagenomes from short reads", commands: ["megahit"] },
  quast: { summary: "Assembly quality assessment: contiguity (N50), misassemblies against a reference", commands: ["quast.py", "quast"] },
  busco: { summary: "Assesses assembly or annotation completeness with conserved single-copy orthologs", commands: ["busco"] },
  prokka: { summary: "Rapid annotation of prokaryotic genomes (genes, rRNA, tRNA) into GenBank/GFF", commands: ["prokka"] },
  antismash: { summary: "Detects and annotates biosynthetic gene clusters (secondary metabolites) in genomes", commands: ["antismash"] },
  hmmer: { summary: "Profile hidden Markov model search for protein domains and homologs (hmmscan, hmmsearch)", commands: ["hmmscan", "hmmsearch", "hmmbuild"] },
  diamond: { summary: "Very fast protein and translated-DNA similarity search, a BLASTP/BLASTX alternative", commands: ["diamond"] },
  blast: { summary: "NCBI BLAST+ sequence similarity search (blastn, blastp, blastx, makeblastdb)", commands: ["blastn", "blastp", "blastx", "makeblastdb"] },
  mash: { summary: "Fast genome and metagenome distance estimation with MinHash sketches", commands: ["mash"] },
  fastani: { summary: "Whole-genome average nucleotide identity (ANI) between genomes", commands: ["fastANI"] },
  gtdbtk: { summary: "Assigns GTDB taxonomy to bacterial and archaeal genomes", commands: ["gtdbtk"] },

  // BAM/VCF handling
  samtools: { summary: "Reads, sorts, indexes, filters and summarises SAM/BAM/CRAM alignment files", commands: ["samtools"] },
  bcftools: { summary: "Manipulates and calls variants in VCF/BCF: filter, merge, normalise, annotate, mpileup/call", commands: ["bcftools"] },
  htslib: { summary: "HTS library utilities: bgzip compression and tabix indexing of genomic files", commands: ["bgzip", "tabix", "htsfile"] },
  picard: { summary: "Java tools for BAM/VCF: MarkDuplicates, CollectMultipleMetrics, sequence dictionaries", commands: ["picard"] },
  sambamba: { summary: "Fast parallel BAM processing: sort, index, markdup, filter", commands: ["sambamba"] },
  bedtools: { summary: "Genome arithmetic on intervals: intersect, merge, coverage, genomecov, getfasta", commands: ["bedtools"] },
  mosdepth: { summary: "Fast sequencing depth and coverage from BAM/CRAM, per base, window or region", commands: ["mosdepth"] },
  qualimap: { summary: "Quality control of alignments: BAM QC and RNA-seq QC (coverage bias, gene body)", commands: ["qualimap"] },
  rseqc: { summary: "RNA-seq QC on BAM files: strandedness (infer_experiment), gene body coverage, read distribution", commands: ["infer_experiment.py", "geneBody_coverage.py", "read_distribution.py", "bam_stat.py", "junction_saturation.py", "inner_distance.py", "read_duplication.py"] },
  preseq: { summary: "Estimates library complexity and the yield of further sequencing", commands: ["preseq"] },
  "ucsc-bedgraphtobigwig": { summary: "UCSC tool converting a sorted bedGraph into an indexed bigWig coverage track", commands: ["bedGraphToBigWig"] },
  "ucsc-bedclip": { summary: "UCSC tool clipping bed/bedGraph intervals to chromosome sizes", commands: ["bedClip"] },

  // Variant calling and annotation
  gatk4: { summary: "GATK 4 toolkit for germline and somatic variant discovery: HaplotypeCaller, Mutect2, BQSR, GenotypeGVCFs, filtering", commands: ["gatk"] },
  freebayes: { summary: "Haplotype-based Bayesian caller for small germline variants (SNVs, indels, MNPs)", commands: ["freebayes"] },
  deepvariant: { summary: "Deep-learning germline small-variant caller for short and long reads", commands: ["run_deepvariant"] },
  strelka: { summary: "Fast germline and somatic small-variant caller (Strelka2), often paired with Manta", commands: ["configureStrelkaGermlineWorkflow.py", "configureStrelkaSomaticWorkflow.py"] },
  manta: { summary: "Structural-variant and indel caller for germline and tumour-normal short-read data", commands: ["configManta.py"] },
  delly: { summary: "Structural-variant caller (deletions, duplications, inversions, translocations) from short reads", commands: ["delly"] },
  cnvkit: { summary: "Copy-number variant calling from targeted and exome sequencing", commands: ["cnvkit.py"] },
  vardict: { summary: "Sensitive small-variant caller for targeted sequencing, germline and somatic", commands: ["vardict-java", "VarDict"] },
  lofreq: { summary: "Sensitive low-frequency variant caller (viral, bacterial, subclonal)", commands: ["lofreq"] },
  whatshap: { summary: "Read-based phasing of variants from long or short reads", commands: ["whatshap"] },
  "ensembl-vep": { summary: "Ensembl Variant Effect Predictor: annotates variants with genes, consequences and frequencies", commands: ["vep"] },
  snpeff: { summary: "Annotates variants with predicted functional effects on genes and proteins", commands: ["snpEff"] },
  snpsift: { summary: "Filters and annotates VCF files (dbSNP, ClinVar) alongside SnpEff", commands: ["SnpSift"] },
  msisensor: { summary: "Microsatellite instability detection from tumour-normal or tumour-only BAMs", commands: ["msisensor"] },

  // RNA-seq quantification and expression
  salmon: { summary: "Fast transcript-level quantification of RNA-seq reads by selective alignment (quasi-mapping)", commands: ["salmon"] },
  kallisto: { summary: "Pseudoalignment-based transcript quantification of RNA-seq reads", commands: ["kallisto"] },
  subread: { summary: "Subread package: featureCounts counts reads or read pairs per gene/feature from BAM files", commands: ["featureCounts", "subread-align", "subread-buildindex"] },
  "htseq": { summary: "Python framework with htseq-count, which counts reads per gene from alignments", commands: ["htseq-count"] },
  stringtie: { summary: "Transcript assembly and quantification from RNA-seq alignments", commands: ["stringtie"] },
  rsem: { summary: "Transcript and gene quantification from RNA-seq with expectation maximisation", commands: ["rsem-calculate-expression", "rsem-prepare-reference"] },
  "bioconductor-deseq2": { summary: "R/Bioconductor differential expression analysis of count data (negative binomial GLM)", commands: ["DESeq2"] },
  "bioconductor-edger": { summary: "R/Bioconductor differential expression of count data with empirical Bayes dispersion", commands: ["edgeR"] },
  "bioconductor-limma": { summary: "R/Bioconductor linear models for expression data; voom for RNA-seq counts", commands: ["limma"] },
  "bioconductor-tximport": { summary: "R/Bioconductor import of transcript quantifications (salmon, kallisto) into gene-level counts", commands: ["tximport"] },
  "bioconductor-tximeta": { summary: "R/Bioconductor tximport with automatic transcriptome metadata and provenance", commands: ["tximeta"] },
  "bioconductor-dupradar": { summary: "R/Bioconductor assessment of PCR duplication rate versus expression in RNA-seq", commands: ["dupRadar"] },
  "bioconductor-summarizedexperiment": { summary: "R/Bioconductor container for assays with row and column metadata", commands: ["SummarizedExperiment"] },
  "bioconductor-complexheatmap": { summary: "R/Bioconductor package for annotated heatmaps", commands: ["ComplexHeatmap"] },

  // Epigenomics
  macs2: { summary: "Model-based peak calling for ChIP-seq (narrow and broad peaks) and ATAC-seq", commands: ["macs2"] },
  macs3: { summary: "Successor of MACS2 for ChIP-seq and ATAC-seq peak calling", commands: ["macs3"] },
  genrich: { summary: "Peak caller for ChIP-seq and ATAC-seq that handles replicates jointly", commands: ["Genrich"] },
  homer: { summary: "Motif discovery and peak annotation for ChIP-seq and other functional genomics data", commands: ["findMotifsGenome.pl", "annotatePeaks.pl", "makeTagDirectory"] },
  idr: { summary: "Irreproducible discovery rate between replicate peak sets", commands: ["idr"] },
  deeptools: { summary: "Coverage tracks and QC for NGS: bamCoverage bigWigs, computeMatrix, plotFingerprint, heatmaps", commands: ["bamCoverage", "computeMatrix", "plotHeatmap", "plotFingerprint", "multiBamSummary", "plotCorrelation"] },
  methyldackel: { summary: "Extracts per-CpG methylation metrics from bisulfite alignments (bwa-meth, Bismark)", commands: ["MethylDackel"] },
  pygenometracks: { summary: "Plots publication-quality genome browser tracks from bigWig, BED, GTF and Hi-C files", commands: ["pyGenomeTracks", "make_tracks_file"] },

  // Single cell
  cellranger: { summary: "10x Genomics pipeline: demultiplexing, alignment, barcode/UMI counting for single-cell data", commands: ["cellranger"] },
  scanpy: { summary: "Python single-cell analysis: QC, normalisation, clustering, UMAP, marker genes (AnnData)", commands: ["scanpy"] },
  "r-seurat": { summary: "R single-cell analysis toolkit: QC, normalisation, integration, clustering, markers", commands: ["Seurat"] },
  "alevin-fry": { summary: "Single-cell quantification from salmon alevin mappings (barcodes, UMIs)", commands: ["alevin-fry"] },
  "kb-python": { summary: "kallisto | bustools wrapper for single-cell RNA-seq quantification", commands: ["kb"] },
  cellbender: { summary: "Removes ambient RNA and background counts from droplet single-cell data", commands: ["cellbender"] },
  "scvi-tools": { summary: "Probabilistic deep-learning models for single-cell integration and annotation", commands: ["scvi"] },
  "velocyto.py": { summary: "RNA velocity: counts spliced and unspliced reads per cell (velocyto)", commands: ["velocyto"] },
  anndata: { summary: "Python annotated data matrix (h5ad), the storage format behind scanpy", commands: [] },

  // Microbiome and amplicon
  qiime2: { summary: "Microbiome analysis platform for amplicon (16S/ITS) data: denoising, taxonomy, diversity", commands: ["qiime"] },
  "bioconductor-dada2": { summary: "R/Bioconductor amplicon denoising into exact sequence variants (ASVs)", commands: ["dada2"] },
  vsearch: { summary: "Amplicon clustering, dereplication, chimera detection and searching (USEARCH alternative)", commands: ["vsearch"] },
  kraken2: { summary: "k-mer based taxonomic classification of metagenomic reads", commands: ["kraken2"] },
  bracken: { summary: "Re-estimates species abundance from Kraken classifications", commands: ["bracken"] },
  metaphlan: { summary: "Marker-gene based taxonomic profiling of shotgun metagenomes", commands: ["metaphlan"] },

  // Phylogenetics and alignment
  mafft: { summary: "Multiple sequence alignment of nucleotide or protein sequences", commands: ["mafft"] },
  iqtree: { summary: "Maximum-likelihood phylogenetic inference with model selection and bootstraps", commands: ["iqtree2", "iqtree"] },
  fasttree: { summary: "Approximate maximum-likelihood phylogenetic trees for large alignments", commands: ["FastTree"] },

  // circRNA
  circexplorer2: { summary: "Identifies and annotates circular RNAs from back-spliced junction reads", commands: ["CIRCexplorer2"] },
  ciriquant: { summary: "Detects and quantifies circular RNAs with differential expression support", commands: ["CIRIquant"] },
  find_circ: { summary: "Detects circular RNAs from unmapped anchor reads (find_circ)", commands: ["find_circ.py"] },
  circrna_finder: { summary: "Detects circular RNAs from STAR chimeric junctions", commands: ["postProcessStarAlignment.pl"] },

  // General-purpose runtimes and helpers often declared in environments
  python: { summary: "Python interpreter, for the pipeline's own scripts", commands: ["python", "python3"] },
  "r-base": { summary: "R interpreter, for the pipeline's own R scripts (Rscript)", commands: ["Rscript", "R"] },
  pandas: { summary: "Python data frames for tabular results (CSV/TSV merging and summaries)", commands: [] },
  pigz: { summary: "Parallel gzip compression and decompression", commands: ["pigz"] },
  jq: { summary: "Command-line JSON processor", commands: ["jq"] },
  gawk: { summary: "GNU awk text processing for tabular files", commands: ["gawk", "awk"] },
  wget: { summary: "Downloads files over HTTP(S) and FTP (only for explicit download steps)", commands: ["wget"] },
};

/** Other spellings of package names: container image names, program names and common short names. */
export const PACKAGE_ALIASES: Readonly<Record<string, string>> = {
  gatk: "gatk4",
  vep: "ensembl-vep",
  featurecounts: "subread",
  trimgalore: "trim-galore",
  trim_galore: "trim-galore",
  seurat: "r-seurat",
  deseq2: "bioconductor-deseq2",
  edger: "bioconductor-edger",
  limma: "bioconductor-limma",
  tximport: "bioconductor-tximport",
  tximeta: "bioconductor-tximeta",
  dada2: "bioconductor-dada2",
  sratoolkit: "sra-tools",
  bedgraphtobigwig: "ucsc-bedgraphtobigwig",
  "fastq_screen": "fastq-screen",
  "umi-tools": "umi_tools",
  circexplorer: "circexplorer2",
  bwamem2: "bwa-mem2",
  "bwa-meth": "bwameth",
  velocyto: "velocyto.py",
};

/** The package a name refers to: its alias target when it has one, else the lowercased name. */
export function canonicalPackageName(name: string): string {
  const lower = name.trim().toLowerCase();
  return PACKAGE_ALIASES[lower] ?? lower;
}
