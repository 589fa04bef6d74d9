/**
 * Request and response types of the data helpers and uploads (they generate this part of the OpenAPI
 * document). Field names follow the predecessor's where the specification is silent.
 */
import { z } from "@hono/zod-openapi";

const FORMATS = ["fastq", "fasta", "sam", "bam", "cram", "vcf", "bcf", "bed", "gff", "gtf", "bigwig", "bigbed", "count_matrix", "csv", "tsv", "text", "unknown"] as const;
const Format = z.enum(FORMATS);
const Range = z.object({ min: z.number(), max: z.number(), mean: z.number() });

/** A request path: absolute inside a data root, or relative to the caller's own files folder. */
const RequestPath = z.string().min(1).max(4096).openapi({ description: "absolute (inside a data root) or relative to your own files folder" });

export const DataRootList = z
  .object({
    roots: z.array(
      z.object({
        kind: z.enum(["own", "data", "home"]).openapi({ description: "own: your files folder (relative paths, uploads); data: a SERVICE_DATA_ROOTS folder; home: your home folder (personal mode without data roots)" }),
        path: z.string().openapi({ description: "how to name it in requests: '.' for your own folder, else the absolute path" }),
        server_path: z.string().nullable().openapi({ description: "your own folder's place on the server (administrators only)" }),
      }),
    ),
  })
  .openapi("DataRootList");

export const AnalyzeBody = z
  .object({
    paths: z.array(RequestPath).min(1).max(100),
    max_depth: z.number().int().min(0).optional().openapi({ description: "folder levels below each given folder (default 3, at most 8)" }),
    max_files: z.number().int().min(1).optional().openapi({ description: "files looked at in all (default 2000, at most 10000)" }),
  })
  .openapi("AnalyzeDataRequest");

const FastqSampleSchema = z.object({
  records: z.number().int(),
  read_length: Range.nullable(),
  quality_encoding: z.enum(["phred33", "phred64", "unknown"]),
  header_read: z.union([z.literal(1), z.literal(2)]).nullable(),
});

const TemplateSuggestionSchema = z.object({ template: z.string(), title: z.string(), score: z.number(), reason: z.string() }).openapi("TemplateSuggestion");

const SampleReadsSchema = z.object({
  sample: z.string(),
  layout: z.enum(["paired", "single", "mixed"]),
  lanes: z.array(z.number().int()),
  r1: z.array(z.string()),
  r2: z.array(z.string()),
  single: z.array(z.string()),
  problems: z.array(z.string()),
});

export const DataAnalysisSchema = z
  .object({
    files: z.array(
      z.object({
        path: z.string(),
        size: z.number().int(),
        format: Format,
        compression: z.enum(["none", "gzip", "bgzf"]),
        format_confidence: z.number(),
        detected_by: z.enum(["content", "name"]),
        name_suggests: Format.nullable(),
        sample_name: z.string().nullable(),
        lane: z.number().int().nullable(),
        read: z.union([z.literal(1), z.literal(2)]).nullable(),
        paired_with: z.string().nullable(),
        fastq: FastqSampleSchema.nullable(),
        warnings: z.array(z.string()),
      }),
    ),
    samples: z.array(SampleReadsSchema),
    summary: z.object({
      files: z.number().int(),
      total_size: z.number().int(),
      formats_detected: z.array(Format),
      paired_end_detected: z.boolean(),
      layout: z.enum(["paired", "single", "mixed"]).nullable(),
      read_length: Range.nullable(),
      quality_encoding: z.enum(["phred33", "phred64", "mixed", "unknown"]).nullable(),
      strand_specific: z.boolean().nullable().openapi({ description: "whether the library is strand-specific: reads alone do not tell, so null" }),
    }),
    // A union, not .nullable(): nullable() of a named schema made the named component itself nullable.
    suggested_workflow: z.union([TemplateSuggestionSchema, z.null()]),
    suggestions: z.array(TemplateSuggestionSchema),
    warnings: z.array(z.string()),
    truncated: z.boolean(),
  })
  .openapi("DataAnalysis");

export const PerceiveBody = z
  .object({
    paths: z.array(RequestPath).max(100).optional(),
    description: z.string().max(20_000).optional().openapi({ description: "the data in your words: assay, organism or build, read type and length, replicates, conditions" }),
  })
  .openapi("PerceiveDataRequest");

const FindingValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

export const PerceptionSchema = z
  .object({
    data_level: z.number().int().openapi({ description: "0 nothing given, 2 a description only, 3 files analysed" }),
    findings: z.array(
      z.object({
        field: z.string(),
        value: FindingValue,
        confidence: z.number(),
        source: z.enum(["file_scan", "user_description"]),
        evidence: z.string().openapi({ description: "the file names or the words the finding rests on" }),
      }),
    ),
    conflicts: z.array(z.object({ field: z.string(), file_scan: FindingValue, user_description: FindingValue, message: z.string() })),
    warnings: z.array(z.string()),
    suggestions: z.array(z.string()),
    templates: z.array(TemplateSuggestionSchema),
  })
  .openapi("DataPerception");

export const SheetParseBody = z
  .object({
    content: z.string().max(5_000_000),
    base_path: RequestPath.optional().openapi({ description: "the folder relative file paths of the sheet are read from (default: your own files folder)" }),
  })
  .openapi("ParseSampleSheetRequest");

const SheetProblemSchema = z.object({ level: z.enum(["error", "warning"]), line: z.number().int().nullable(), column: z.string().nullable(), message: z.string(), suggestion: z.string().optional() });

export const ParsedSheetSchema = z
  .object({
    format: z.enum(["nf-core", "unknown"]),
    delimiter: z.enum(["csv", "tsv"]),
    detected_headers: z.array(z.string()),
    columns: z.record(z.string(), z.string()),
    rows: z.array(
      z.object({
        line: z.number().int(),
        sample: z.string(),
        fastq_1: z.string().nullable(),
        fastq_2: z.string().nullable(),
        strandedness: z.string().nullable(),
        condition: z.string().nullable(),
        replicate: z.string().nullable(),
        extra: z.record(z.string(), z.string()),
      }),
    ),
    samples: z.array(z.object({ sample: z.string(), layout: z.enum(["paired", "single", "mixed"]), rows: z.number().int(), fastq_1: z.array(z.string()), fastq_2: z.array(z.string()), condition: z.string().nullable() })),
    samples_count: z.number().int(),
    valid: z.boolean(),
    errors: z.array(SheetProblemSchema),
    warnings: z.array(SheetProblemSchema),
  })
  .openapi("ParsedSampleSheet");

export const SheetGenerateBody = z
  .object({
    paths: z.array(RequestPath).min(1).max(100),
    delimiter: z.enum(["csv", "tsv"]).optional(),
    max_depth: z.number().int().min(0).optional(),
  })
  .openapi("GenerateSampleSheetRequest");

export const GeneratedSheet = z.object({ content: z.string(), samples_count: z.number().int(), warnings: z.array(z.string()) }).openapi("GeneratedSampleSheet");

const ComponentStatusSchema = z.object({ component: z.string(), present: z.boolean(), path: z.string().nullable(), command: z.string().nullable() });

const GenomeStatusSchema = z
  .object({
    genome: z.string(),
    layout: z.enum(["igenomes", "ensembl", "flat", "none"]),
    species: z.string().nullable(),
    folder: z.string().nullable(),
    components: z.array(ComponentStatusSchema),
    missing: z.array(z.string()),
  })
  .openapi("GenomeStatus");

export const ReferenceBody = z
  .object({
    genome: z.string().trim().min(1).max(200),
    components: z.array(z.string().min(1).max(64)).max(20).optional().openapi({ description: "fasta, fai, dict, annotation (gtf), bwa, bowtie2, star, hisat2 (default: all)" }),
  })
  .openapi("ReferenceRequest");

export const ReferenceAnswer = z
  .object({
    genome: z.string(),
    found: z.array(z.string()).openapi({ description: "paths of the components present" }),
    missing: z.array(z.string()).openapi({ description: "the components asked for that are missing" }),
    download_commands: z.array(z.string()).openapi({ description: "the commands that obtain or build what is missing" }),
    status: GenomeStatusSchema,
  })
  .openapi("ReferenceAnswer");

export const ReferenceStatusAnswer = z
  .object({
    roots: z.number().int().openapi({ description: "reference roots configured (SERVICE_REFERENCE_ROOTS)" }),
    installed: z.array(GenomeStatusSchema.extend({ found: z.array(z.string()) })),
    missing: z.array(z.string()).openapi({ description: "well-known builds not found in the reference roots" }),
    download_commands: z.array(z.string()),
  })
  .openapi("ReferenceStatus");

export const UploadQuery = z.object({
  name: z.string().max(255).optional().openapi({ description: "the file's name (a raw body; multipart parts carry their own)" }),
  path: z.string().max(1024).optional().openapi({ description: "the folder inside your files folder (default uploads)" }),
  overwrite: z.enum(["true", "false"]).optional().openapi({ description: "replace a file of that name (default false: 409)" }),
});

const UploadedFile = z.object({ path: z.string().openapi({ description: "relative to your files folder (use it as a request path)" }), size: z.number().int(), sha256: z.string() });

export const UploadAnswer = UploadedFile.extend({ files: z.array(UploadedFile) }).openapi("UploadAnswer");

export const ListFilesQuery = z.object({ path: z.string().max(1024).optional().openapi({ description: "a folder inside your files folder (relative), or an absolute folder inside a data root you may read (default: your files folder)" }) });

export const FileListing = z
  .object({
    path: z.string(),
    entries: z.array(z.object({ name: z.string(), path: z.string(), type: z.enum(["file", "folder"]), size: z.number().int(), modified_at: z.string() })),
    truncated: z.boolean(),
  })
  .openapi("FileListing");

export const TemplateFromDataBody = z
  .object({
    paths: z.array(RequestPath).min(1).max(100),
    template: z.string().trim().min(1).max(100).optional().openapi({ description: "a built-in template's id (default: the analysis' first suggestion)" }),
    max_depth: z.number().int().min(0).optional(),
    max_files: z.number().int().min(1).optional(),
  })
  .openapi("TemplateFromDataRequest");

export const FilledTemplateSchema = z
  .object({
    template: z.string(),
    title: z.string(),
    toml_content: z.string().openapi({ description: "the template with the samples and reads written in, files named where jobs read them (your own files by their place on the server); not saved (POST /api/pipelines saves it)" }),
    samples: z.array(z.string()),
    reads: z
      .union([
        z.object({ how: z.literal("pattern"), r1: z.string(), r2: z.string().nullable() }),
        z.object({ how: z.literal("staged"), rule: z.string() }),
        z.object({ how: z.literal("unchanged"), reason: z.string() }),
      ])
      .openapi({ description: "pattern: the read inputs now name the files; staged: a rule gathers each sample's files (lanes) into the template's paths; unchanged: the template's read paths were kept (reason)" }),
    notes: z.array(z.string()),
    analysis: DataAnalysisSchema,
  })
  .openapi("FilledTemplate");
