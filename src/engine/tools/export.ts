/**
 * `strand export`: a container recipe (Dockerfile or Apptainer/Singularity definition) that bundles a
 * workflow with strand and the software environments its rules name, so the image runs it unchanged.
 *
 * The recipe is planned from the pipeline first (which environments, which base image), then rendered per
 * format, so both formats agree on what goes into the image.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, extname, isAbsolute, join, posix, relative, resolve, sep } from "node:path";
import { EngineError } from "../findings.js";
import type { Environment, Pipeline, Rule } from "../format/model.js";
import { environmentKind } from "../format/rule-settings.js";
import { shellWord } from "../expand/shell-quote.js";
import { engineVersion } from "../version.js";

/** The container formats `export` writes. */
export const EXPORT_FORMATS = ["docker", "singularity"] as const;

/** One of `EXPORT_FORMATS`. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What `export` returns: the recipe text and the file name it is conventionally saved under. */
export interface ExportResult {
  format: ExportFormat;
  filename: string;
  content: string;
}

/** Knobs for `exportPipeline`; the defaults suit the installed engine. */
export interface ExportOptions {
  /** The strand version in the image (default: this package's version); a Dockerfile starts from `strand:<version>`. */
  engineVersion?: string;
}

const BASE_IMAGE = "ubuntu:22.04";
// A Dockerfile starts from the image the strand repository's Dockerfile builds (`docker build -t strand:<version> .`),
// which holds Node.js, strand in STRAND_HOME and the non-root user; a GPU image copies strand out of it.
const STRAND_IMAGE_NAME = "strand";
const STRAND_HOME = "/opt/strand";
// Conda and pixi are copied out of pinned images rather than fetched and run by an installer script.
const MINIFORGE_IMAGE = "condaforge/miniforge3:25.3.1-0";
const PIXI_IMAGE = "ghcr.io/prefix-dev/pixi:0.45.0";
const CUDA_IMAGE = "nvidia/cuda:12.0.0-runtime-ubuntu22.04";
// Compute capability 7.x (Volta/Turing) GPUs are best served by the CUDA 11.8 runtime.
const CUDA_LEGACY_IMAGE = "nvidia/cuda:11.8.0-runtime-ubuntu22.04";
const WORKFLOW_DIR = "/workflow";
const USER = "strand";
// The uid of the strand image's user, so files in volumes keep one owner across images.
const USER_ID = 10001;
const APT_PACKAGES = ["ca-certificates", "curl", "wget", "git", "bzip2", "build-essential"];
const VENV_APT_PACKAGES = ["python3", "python3-venv", "python3-pip"];
// At most this many rule names are listed in a comment; long pipelines would otherwise produce huge lines.
const MAX_LISTED_USERS = 6;

/** Builds the container recipe for a pipeline in the given format. */
export function exportPipeline(pipeline: Pipeline, format: string, options: ExportOptions = {}): ExportResult {
  if (!isExportFormat(format)) {
    throw new EngineError("USAGE_ERROR", `unknown export format '${format}': use one of ${EXPORT_FORMATS.join(", ")}`, {
      suggestion: `strand export WORKFLOW -f ${EXPORT_FORMATS[0]}`,
    });
  }
  const plan = planImage(pipeline, options.engineVersion ?? engineVersion());
  if (format === "docker") return { format, filename: "Dockerfile", content: renderDockerfile(plan) };
  return { format, filename: `${fileSafe(plan.name)}.def`, content: renderDefinition(plan) };
}

/** True when `value` names a format `exportPipeline` writes. */
export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

// ---------------------------------------------------------------------------------------------------------
// Planning: what the image needs, independent of the recipe format.

/** A conda environment built into the image. */
type CondaPlan =
  | { kind: "file"; source: string; dest: string; target: string; users: string[] }
  | { kind: "packages"; spec: string; target: string; users: string[] };

interface PixiPlan {
  manifest: string;
  dest: string;
  /** The lock file next to the manifest, copied too so the image resolves the same versions. */
  lock: { source: string; dest: string } | null;
  users: string[];
}

interface VenvPlan {
  path: string;
  requirements: { source: string; dest: string } | null;
  users: string[];
}

/** Something the image cannot provide, explained in a comment. */
interface Note {
  text: string;
  users: string[];
}

interface ImagePlan {
  name: string;
  version: string;
  description?: string;
  author?: string;
  engineVersion: string;
  base: string;
  gpu: boolean;
  workflowFile: string;
  conda: CondaPlan[];
  /** Conda is installed when any environment uses it, even one the image cannot build. */
  needsConda: boolean;
  pixi: PixiPlan[];
  venvs: VenvPlan[];
  /** Run-time container images (docker/singularity environments), pulled when their rule runs. */
  images: Note[];
  /** Environments the image cannot build (named conda envs, modules, files outside the folder). */
  notes: Note[];
  /** Folders outside the workflow folder that hold absolute conda prefixes or venvs; the non-root user must own them. */
  ownedFolders: string[];
}

/** An environment and who uses it (a rule, a reference build, or the workflow defaults). */
interface EnvironmentUse {
  environment: Environment;
  user: string;
}

type Backend = { kind: "conda" | "mamba"; spec: string; prefix?: string } | { kind: "pixi" | "docker" | "singularity" | "venv"; spec: string } | { kind: "modules"; modules: string[] };

function planImage(pipeline: Pipeline, version: string): ImagePlan {
  const gpu = gpuBase(pipeline.rules);
  const plan: ImagePlan = {
    name: pipeline.workflow.name,
    version: pipeline.workflow.version,
    description: pipeline.workflow.description,
    author: pipeline.workflow.author,
    engineVersion: version,
    base: gpu ?? BASE_IMAGE,
    gpu: gpu !== null,
    workflowFile: workflowFileName(pipeline),
    conda: [],
    needsConda: false,
    pixi: [],
    venvs: [],
    images: [],
    notes: [],
    ownedFolders: [],
  };
  const builder = new EnvironmentCollector(plan, pipeline.dir);
  for (const use of environmentUses(pipeline)) builder.add(use);
  return plan;
}

/** The CUDA base image when any rule asks for GPUs, else null. */
function gpuBase(rules: Rule[]): string | null {
  const gpuRules = rules.filter((rule) => (rule.resources.gpu ?? 0) > 0 || (rule.resources.gpu_spec !== undefined && rule.resources.gpu_spec.count !== 0));
  if (gpuRules.length === 0) return null;
  const legacy = gpuRules.some((rule) => rule.resources.gpu_spec?.compute_capability?.trim().startsWith("7"));
  return legacy ? CUDA_LEGACY_IMAGE : CUDA_IMAGE;
}

/** The workflow file as the image's default command names it: relative to the workflow folder. */
function workflowFileName(pipeline: Pipeline): string {
  const file = isAbsolute(pipeline.path) ? relative(pipeline.dir, pipeline.path) : pipeline.path;
  if (file === "" || file.startsWith("..") || isAbsolute(file)) return basename(pipeline.path) || "main.oxoflow";
  return toPosix(file);
}

/** Every environment the run can enter, in the order the run first enters them: reference builds, rules, defaults. */
function environmentUses(pipeline: Pipeline): EnvironmentUse[] {
  const uses: EnvironmentUse[] = [];
  for (const reference of pipeline.references) uses.push({ environment: reference.environment, user: `reference ${reference.name}` });
  const fallback = pipeline.defaults.environment;
  for (const rule of pipeline.rules) {
    // `defaults.environment` fills a rule whose own environment is empty (docs/reference/pipeline-format.md §3.7).
    const own = backendOf(rule.environment) ? rule.environment : undefined;
    const environment = own ?? fallback;
    if (environment) uses.push({ environment, user: rule.name });
  }
  if (fallback) uses.push({ environment: fallback, user: "[defaults]" });
  return uses;
}

/** The one backend an environment uses (the run's priority decides when several are set), with what it needs. */
function backendOf(environment: Environment): Backend | null {
  const kind = environmentKind(environment);
  switch (kind) {
    case "system":
      return null;
    case "modules":
      return { kind, modules: environment.modules ?? [] };
    case "mamba":
      return { kind, spec: environment.mamba!, prefix: environment.mamba_prefix };
    case "conda":
      return { kind, spec: environment.conda!, prefix: environment.conda_prefix };
    default:
      return { kind, spec: environment[kind]! };
  }
}

/** Folds environment uses into the plan, creating each distinct environment once. */
class EnvironmentCollector {
  private readonly byKey = new Map<string, { users: string[] }>();
  private readonly envNames = new Set<string>();

  constructor(
    private readonly plan: ImagePlan,
    private readonly dir: string,
  ) {}

  add(use: EnvironmentUse): void {
    const backend = backendOf(use.environment);
    if (!backend) return;
    switch (backend.kind) {
      case "conda":
      case "mamba":
        this.plan.needsConda = true;
        this.addConda(backend.spec, backend.prefix, use);
        break;
      case "pixi":
        this.addPixi(backend.spec, use);
        break;
      case "venv":
        this.addVenv(backend.spec, use);
        break;
      case "docker":
      case "singularity":
        this.record(`image:${backend.kind}:${backend.spec}`, use.user, () => {
          const note: Note = { text: `${backend.kind}: ${backend.spec}`, users: [] };
          this.plan.images.push(note);
          return note;
        });
        break;
      case "modules":
        this.note(`environment modules are not available in the image (module load ${backend.modules.join(" ")}); install the tools another way`, use.user);
        break;
    }
  }

  private addConda(spec: string, prefix: string | undefined, use: EnvironmentUse): void {
    const kind = condaSpecKind(spec);
    if (kind === "named") {
      this.note(`conda environment '${spec}' is named, not described; the image cannot build it (use an environment .yaml file)`, use.user);
      return;
    }
    if (kind === "packages") {
      this.record(`conda-packages:${spec}:${prefix ?? ""}`, use.user, () => {
        const entry: CondaPlan = { kind: "packages", spec, target: this.condaTarget(sanitiseEnvName(spec), prefix), users: [] };
        this.plan.conda.push(entry);
        return entry;
      });
      return;
    }
    const file = this.inFolder(spec, use.user, "conda environment file");
    if (!file) return;
    this.record(`conda-file:${file}:${prefix ?? ""}`, use.user, () => {
      const entry: CondaPlan = { kind: "file", source: file, dest: imagePath(file), target: this.condaTarget(condaEnvName(resolve(this.dir, file)), prefix), users: [] };
      this.plan.conda.push(entry);
      return entry;
    });
  }

  private addPixi(spec: string, use: EnvironmentUse): void {
    // A folder stands for the pixi.toml inside it, as `pixi --manifest-path` reads it.
    const manifest = this.inFolder(extname(spec) === "" ? join(spec, "pixi.toml") : spec, use.user, "pixi manifest");
    if (!manifest) return;
    this.record(`pixi:${manifest}`, use.user, () => {
      const lockFile = join(dirname(manifest), "pixi.lock");
      const lock = extname(manifest) === ".toml" && existsSync(resolve(this.dir, lockFile)) ? { source: toPosix(lockFile), dest: imagePath(lockFile) } : null;
      const entry: PixiPlan = { manifest, dest: imagePath(manifest), lock, users: [] };
      this.plan.pixi.push(entry);
      return entry;
    });
  }

  private addVenv(spec: string, use: EnvironmentUse): void {
    const requirementsPath = use.environment.venv_requirements;
    const requirements = requirementsPath ? this.inFolder(requirementsPath, use.user, "venv requirements file") : null;
    this.record(`venv:${spec}:${requirements ?? ""}`, use.user, () => {
      // venv accepts an existing empty folder, so the user gets the folder itself (its parent may be `/`).
      this.own(spec, spec);
      const entry: VenvPlan = { path: spec, requirements: requirements ? { source: requirements, dest: imagePath(requirements) } : null, users: [] };
      this.plan.venvs.push(entry);
      return entry;
    });
  }

  /** A conda env's target: `-p PREFIX` when the environment pins a prefix, else `-n NAME` with a unique name. */
  private condaTarget(name: string, prefix: string | undefined): string {
    if (prefix) {
      // conda refuses an existing non-environment folder as a prefix, so the user gets its parent instead.
      this.own(prefix, posix.dirname(posix.normalize(prefix)));
      return `-p ${shellWord(prefix)}`;
    }
    let unique = name;
    for (let n = 2; this.envNames.has(unique); n++) unique = `${name}_${n}`;
    this.envNames.add(unique);
    return `-n ${unique}`;
  }

  /** Environments are built as the non-root user, so it must own `folder` when an absolute `path` lies outside the workflow folder. */
  private own(path: string, folder: string): void {
    if (!posix.isAbsolute(path) || path === WORKFLOW_DIR || path.startsWith(`${WORKFLOW_DIR}/`)) return;
    if (folder !== "/" && !this.plan.ownedFolders.includes(folder)) this.plan.ownedFolders.push(folder);
  }

  /** The path relative to the workflow folder, or null (with a note) when it lies outside the build context. */
  private inFolder(path: string, user: string, what: string): string | null {
    const rel = relative(this.dir, resolve(this.dir, path));
    if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
      this.note(`${what} ${path} is outside the workflow folder, so the image cannot copy it; move it into the folder`, user);
      return null;
    }
    return toPosix(rel);
  }

  private note(text: string, user: string): void {
    this.record(`note:${text}`, user, () => {
      const note: Note = { text, users: [] };
      this.plan.notes.push(note);
      return note;
    });
  }

  /** Adds `user` to the entry under `key`, creating the entry on first use (keeps first-use order). */
  private record(key: string, user: string, create: () => { users: string[] }): void {
    let entry = this.byKey.get(key);
    if (!entry) {
      entry = create();
      this.byKey.set(key, entry);
    }
    if (!entry.users.includes(user)) entry.users.push(user);
  }
}

/** How a conda spec is meant: an environment file, a package list (`bioconda::samtools=1.17`), or an existing env's name. */
function condaSpecKind(spec: string): "file" | "packages" | "named" {
  if (/\.ya?ml$/i.test(spec.trim())) return "file";
  if (spec.includes("::") || spec.includes("=")) return "packages";
  return "named";
}

/**
 * The env name the run uses for a file: its YAML `name:` when readable, else the file stem
 * (docs/reference/pipeline-format.md §3.7).
 */
function condaEnvName(file: string): string {
  const stem = basename(file).replace(/\.ya?ml$/i, "");
  try {
    const match = /^name:\s*["']?([^"'#\s]+)["']?\s*(?:#.*)?$/m.exec(readFileSync(file, "utf8"));
    return sanitiseEnvName(match?.[1] ?? stem);
  } catch {
    // A file that cannot be read now may exist at build time; the stem is what the run would fall back to.
    return sanitiseEnvName(stem);
  }
}

/** Conda env names must match `[A-Za-z0-9_-]+`. */
function sanitiseEnvName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_").replace(/^_+|_+$/g, "") || "env";
}

/** Where a workflow-relative file lands in the image. */
function imagePath(rel: string): string {
  return `${WORKFLOW_DIR}/${toPosix(rel)}`;
}

function toPosix(path: string): string {
  return path.split(sep).join("/");
}

/** A Docker image tag: at most 128 of `[A-Za-z0-9_.-]`, not starting with `.` or `-`. */
function imageTag(version: string): string {
  return version.replace(/[^A-Za-z0-9_.-]+/g, "-").replace(/^[.-]+/, "").slice(0, 128) || "unversioned";
}

function fileSafe(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_") || "workflow";
}

// ---------------------------------------------------------------------------------------------------------
// Shared rendering helpers.

/** Collapses whitespace so free text (descriptions, names) cannot break out of a comment or label line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function header(plan: ImagePlan): string {
  return `# Generated by strand for workflow: ${oneLine(plan.name)} (version ${oneLine(plan.version)})`;
}

function listUsers(users: string[]): string {
  const shown = users.slice(0, MAX_LISTED_USERS).join(", ");
  return users.length > MAX_LISTED_USERS ? `${shown}, +${users.length - MAX_LISTED_USERS} more` : shown;
}

function aptInstall(plan: ImagePlan): string {
  const packages = plan.venvs.length > 0 ? [...APT_PACKAGES, ...VENV_APT_PACKAGES] : APT_PACKAGES;
  return `apt-get update && apt-get install -y --no-install-recommends ${packages.join(" ")} && rm -rf /var/lib/apt/lists/*`;
}

function condaCreate(entry: CondaPlan): string {
  if (entry.kind === "file") return `conda env create -f ${shellWord(entry.dest)} ${entry.target}`;
  const packages = entry.spec.split(/\s+/).filter(Boolean).map(shellWord).join(" ");
  return `conda create ${entry.target} ${packages} -y`;
}

function venvCreate(entry: VenvPlan): string {
  const path = shellWord(entry.path);
  const create = `python3 -m venv ${path}`;
  return entry.requirements ? `${create} && ${path}/bin/pip install --no-cache-dir -r ${shellWord(entry.requirements.dest)}` : create;
}

function noteLines(plan: ImagePlan): string[] {
  const lines: string[] = [];
  if (plan.images.length > 0) {
    lines.push("# Run-time images, pulled when the rule runs (not part of this image):");
    for (const image of plan.images) lines.push(`#   ${oneLine(image.text)} (${listUsers(image.users)})`);
  }
  for (const note of plan.notes) lines.push(`# NOTE: ${oneLine(note.text)} (${listUsers(note.users)})`);
  return lines;
}

// ---------------------------------------------------------------------------------------------------------
// Dockerfile.

function renderDockerfile(plan: ImagePlan): string {
  const sections = [
    dockerHead(plan),
    dockerSystem(plan),
    dockerUser(plan),
    plan.needsConda ? dockerConda() : [],
    plan.pixi.length > 0 ? dockerPixi() : [],
    dockerEnvironments(plan),
    noteLines(plan),
    dockerTail(plan),
  ];
  return `${sections.filter((lines) => lines.length > 0).map((lines) => lines.join("\n")).join("\n\n")}\n`;
}

function dockerHead(plan: ImagePlan): string[] {
  const labels = [`org.opencontainers.image.title=${dockerString(plan.name)}`, `org.opencontainers.image.version=${dockerString(plan.version)}`];
  if (plan.description) labels.push(`org.opencontainers.image.description=${dockerString(plan.description)}`);
  if (plan.author) labels.push(`org.opencontainers.image.authors=${dockerString(plan.author)}`);
  const strandImage = `${STRAND_IMAGE_NAME}:${imageTag(plan.engineVersion)}`;
  const lines = [
    header(plan),
    "# Base: the strand image, built from the strand repository (its Dockerfile) with",
    `#   docker build -t ${strandImage} .`,
    `# or another build of it: --build-arg STRAND_IMAGE=registry.example.org/${strandImage}`,
    `# Build: docker build -t ${fileSafe(plan.name).toLowerCase()}:${imageTag(plan.version)} .   (from the workflow folder)`,
    `ARG STRAND_IMAGE=${strandImage}`,
  ];
  if (plan.gpu) {
    // The CUDA runtime image is the base; Node.js and strand come out of the strand image.
    lines.push(
      "FROM ${STRAND_IMAGE} AS strand",
      "",
      `FROM ${plan.base}`,
      "",
      "# Node.js and strand, from the strand image",
      "COPY --from=strand /usr/local/bin/node /usr/local/bin/node",
      `COPY --from=strand ${STRAND_HOME} ${STRAND_HOME}`,
      `RUN ln -s ${STRAND_HOME}/bin/strand.js /usr/local/bin/strand`,
    );
  } else {
    lines.push("FROM ${STRAND_IMAGE}");
  }
  lines.push("", `LABEL ${labels.join(" \\\n      ")}`);
  if (plan.gpu) lines.push("", "ENV NVIDIA_VISIBLE_DEVICES=all \\\n    NVIDIA_DRIVER_CAPABILITIES=compute,utility");
  return lines;
}

/** System packages, installed as root (the strand image runs as its non-root user). */
function dockerSystem(plan: ImagePlan): string[] {
  return ["USER root", "ARG DEBIAN_FRONTEND=noninteractive", `RUN ${aptInstall(plan)}`];
}

function dockerUser(plan: ImagePlan): string[] {
  const folders = [WORKFLOW_DIR, ...plan.ownedFolders].map(shellWord).join(" ");
  return [
    "# Non-root user (the strand image has it; a CUDA base gets it here); it owns the workflow folder and the",
    "# environments so runs can write and set them up",
    dockerRun([
      `(id -u ${USER} >/dev/null 2>&1 || (groupadd --gid ${USER_ID} ${USER} && useradd --uid ${USER_ID} --gid ${USER} --create-home --home-dir /home/${USER} --shell /bin/bash ${USER}))`,
      `mkdir -p ${folders}`,
      `chown ${USER}:${USER} ${folders}`,
    ]),
  ];
}

function dockerConda(): string[] {
  return [
    "# Conda (Miniforge, which includes mamba), from its pinned image",
    `COPY --from=${MINIFORGE_IMAGE} --chown=${USER}:${USER} /opt/conda /opt/conda`,
    "ENV PATH=/opt/conda/bin:$PATH",
  ];
}

function dockerPixi(): string[] {
  return ["# pixi, from its pinned image", `COPY --from=${PIXI_IMAGE} /usr/local/bin/pixi /usr/local/bin/pixi`];
}

/** Environment creation runs as the non-root user, before the workflow is copied, so editing the workflow keeps these layers cached. */
function dockerEnvironments(plan: ImagePlan): string[] {
  const lines = [`USER ${USER}`, `WORKDIR ${WORKFLOW_DIR}`];
  const copied = new Set<string>();
  const copy = (source: string, dest: string): void => {
    if (copied.has(dest)) return;
    copied.add(dest);
    lines.push(dockerCopy(source, dest));
  };
  for (const entry of plan.conda) {
    lines.push("", `# conda environment for ${listUsers(entry.users)}`);
    if (entry.kind === "file") copy(entry.source, entry.dest);
    lines.push(`RUN ${condaCreate(entry)} && conda clean -afy`);
  }
  for (const entry of plan.pixi) {
    lines.push("", `# pixi environment for ${listUsers(entry.users)}`);
    copy(entry.manifest, entry.dest);
    if (entry.lock) copy(entry.lock.source, entry.lock.dest);
    lines.push(`RUN pixi install --manifest-path ${shellWord(entry.dest)}`);
  }
  for (const entry of plan.venvs) {
    lines.push("", `# Python virtual environment for ${listUsers(entry.users)} (keep ${entry.path} out of the build context with .dockerignore)`);
    if (entry.requirements) copy(entry.requirements.source, entry.requirements.dest);
    lines.push(`RUN ${venvCreate(entry)}`);
  }
  return lines;
}

function dockerTail(plan: ImagePlan): string[] {
  return [
    `COPY --chown=${USER}:${USER} . ${WORKFLOW_DIR}/`,
    "",
    `ENTRYPOINT ${execForm(["strand", "run"])}`,
    `CMD ${execForm([plan.workflowFile])}`,
    `HEALTHCHECK CMD ${execForm(["strand", "--version"])}`,
  ];
}

/** The JSON (exec) form of a command, spaced as Dockerfiles are usually written. */
function execForm(words: string[]): string {
  return `[${words.map((word) => JSON.stringify(word)).join(", ")}]`;
}

/** A RUN instruction with one command per line, joined by `&&`. */
function dockerRun(commands: string[]): string {
  return `RUN ${commands.join(" \\\n    && ")}`;
}

/** A COPY that survives spaces in paths: the JSON form whenever a path has characters the plain form splits on. */
function dockerCopy(source: string, dest: string): string {
  const chown = `--chown=${USER}:${USER}`;
  if (/[\s"'\\]/.test(source + dest)) return `COPY ${chown} ${execForm([source, dest])}`;
  return `COPY ${chown} ${source} ${dest}`;
}

/** A double-quoted Dockerfile value; `$` is escaped because LABEL values undergo variable substitution. */
function dockerString(text: string): string {
  return `"${oneLine(text).replace(/[\\"$]/g, "\\$&")}"`;
}

// ---------------------------------------------------------------------------------------------------------
// Apptainer / Singularity definition.

// Like the Dockerfile, the definition installs nothing by piping a downloaded script into a shell: strand comes
// from the strand image (its base, or a stage for a CUDA base), conda and pixi from stages of their pinned
// images (multi-stage definitions and %files from a stage: Singularity 3.2+, Apptainer; build arguments
// need Apptainer 1.2+).
function renderDefinition(plan: ImagePlan): string {
  const sections = [
    definitionHead(plan),
    definitionLabels(plan),
    ...definitionStageFiles(plan),
    definitionFiles(plan),
    definitionPost(plan),
    definitionEnvironment(plan),
    ["%runscript", '    exec strand run "$@"'],
    ["%test", "    strand --version"],
    definitionHelp(plan),
  ];
  return `${sections.map((lines) => lines.join("\n")).join("\n\n")}\n`;
}

function definitionHead(plan: ImagePlan): string[] {
  const strandImage = `${STRAND_IMAGE_NAME}:${imageTag(plan.engineVersion)}`;
  const lines = [
    header(plan),
    "# Base: the strand image, built from the strand repository (its Dockerfile) and pushed where this machine",
    `# can pull it:  docker build -t registry.example.org/${strandImage} . && docker push registry.example.org/${strandImage}`,
    `# Build: apptainer build --build-arg STRAND_IMAGE=registry.example.org/${strandImage} ${fileSafe(plan.name)}.sif ${fileSafe(plan.name)}.def`,
    "#   (from the workflow folder; with the image in a local Docker daemon instead, change the last stage's",
    "#   Bootstrap to docker-daemon)",
  ];
  const stage = (from: string, name: string, extra: string[] = []) => lines.push("", "Bootstrap: docker", `From: ${from}`, `Stage: ${name}`, ...extra);
  if (plan.needsConda) stage(MINIFORGE_IMAGE, "conda");
  if (plan.pixi.length > 0) stage(PIXI_IMAGE, "pixi");
  const strandArgument = ["", "%arguments", `    STRAND_IMAGE=${strandImage}`];
  if (plan.gpu) {
    // The CUDA runtime image is the base; Node.js and strand come out of the strand image.
    stage("{{ STRAND_IMAGE }}", "strand", strandArgument);
    stage(plan.base, "final");
  } else {
    stage("{{ STRAND_IMAGE }}", "final", strandArgument);
  }
  return lines;
}

/** What the final stage copies out of the others: Node.js and strand for a CUDA base, conda, pixi. */
function definitionStageFiles(plan: ImagePlan): string[][] {
  const sections: string[][] = [];
  if (plan.gpu) sections.push(["%files from strand", "    /usr/local/bin/node /usr/local/bin/node", `    ${STRAND_HOME} ${STRAND_HOME}`]);
  if (plan.needsConda) sections.push(["%files from conda", "    /opt/conda /opt/conda"]);
  if (plan.pixi.length > 0) sections.push(["%files from pixi", "    /usr/local/bin/pixi /usr/local/bin/pixi"]);
  return sections;
}

function definitionLabels(plan: ImagePlan): string[] {
  return [
    "%labels",
    `    Author ${oneLine(plan.author ?? "strand")}`,
    `    Version ${oneLine(plan.version)}`,
    `    Description ${oneLine(plan.description ?? "strand workflow")}`,
  ];
}

/** The workflow folder first (so `/workflow` exists), then the files the environments are built from. */
function definitionFiles(plan: ImagePlan): string[] {
  const lines = ["%files", `    . ${WORKFLOW_DIR}`];
  const seen = new Set<string>();
  const add = (source: string, dest: string): void => {
    if (seen.has(dest)) return;
    seen.add(dest);
    lines.push(`    ${definitionPath(source)} ${definitionPath(dest)}`);
  };
  for (const entry of plan.conda) if (entry.kind === "file") add(entry.source, entry.dest);
  for (const entry of plan.pixi) {
    add(entry.manifest, entry.dest);
    if (entry.lock) add(entry.lock.source, entry.lock.dest);
  }
  for (const entry of plan.venvs) if (entry.requirements) add(entry.requirements.source, entry.requirements.dest);
  return lines;
}

/** `%files` splits on whitespace unless a path is double-quoted. */
function definitionPath(path: string): string {
  return /\s/.test(path) ? `"${path}"` : path;
}

function definitionPost(plan: ImagePlan): string[] {
  const commands = ["set -e", "export DEBIAN_FRONTEND=noninteractive", aptInstall(plan)];
  if (plan.gpu) commands.push("", "# strand, copied from the strand image", `ln -sf ${STRAND_HOME}/bin/strand.js /usr/local/bin/strand`);
  if (plan.needsConda) commands.push("", "# Conda (Miniforge, which includes mamba), copied from its pinned image", "export PATH=/opt/conda/bin:$PATH");
  // Relative prefixes and venv paths resolve against the workflow folder, as they do when strand runs there.
  commands.push("", `cd ${WORKFLOW_DIR}`);
  for (const entry of plan.conda) commands.push(`# conda environment for ${listUsers(entry.users)}`, condaCreate(entry));
  if (plan.conda.length > 0) commands.push("conda clean -afy");
  for (const entry of plan.pixi) commands.push(`# pixi environment for ${listUsers(entry.users)}`, `pixi install --manifest-path ${shellWord(entry.dest)}`);
  for (const entry of plan.venvs) commands.push(`# Python virtual environment for ${listUsers(entry.users)}`, venvCreate(entry));
  const notes = noteLines(plan);
  if (notes.length > 0) commands.push("", ...notes);
  return ["%post", ...commands.map((command) => (command === "" ? "" : `    ${command}`))];
}

function definitionEnvironment(plan: ImagePlan): string[] {
  const path = ["/usr/local/bin", ...(plan.needsConda ? ["/opt/conda/bin"] : []), "$PATH"];
  const lines = ["%environment", `    export PATH=${path.join(":")}`];
  if (plan.gpu) lines.push("    export NVIDIA_VISIBLE_DEVICES=all", "    export NVIDIA_DRIVER_CAPABILITIES=compute,utility");
  return lines;
}

function definitionHelp(plan: ImagePlan): string[] {
  const image = `${fileSafe(plan.name)}.sif`;
  const lines = [
    "%help",
    `    strand workflow ${oneLine(plan.name)} (version ${oneLine(plan.version)})${plan.description ? `: ${oneLine(plan.description)}` : ""}`,
    `    The workflow is in ${WORKFLOW_DIR}; the image is read-only, so give a writable working folder:`,
    `        apptainer run ${plan.gpu ? "--nv " : ""}${image} ${WORKFLOW_DIR}/${plan.workflowFile} -d "$PWD"`,
    "    The environments are built into the image; add --skip-env-setup to use them as they are.",
  ];
  return lines;
}
