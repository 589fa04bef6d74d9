/**
 * `[[references]]` builds (docs/reference/pipeline-format.md §5.9), run before the jobs: a reference is built
 * when its output is missing, its source is newer than its output, or its definition, source content or config
 * changed since it was last built (fingerprints in `.strand/reference-checkpoint.json`). An existing output
 * with no recorded fingerprint is adopted. A failed build stops the run.
 */
import { confined, jobConfinementFromEnv } from "./job-sandbox.js";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import type { Job } from "../expand/expand.js";
import { renderJobText, type RenderContext } from "../expand/render-command.js";
import { configKeysIn, renderConfigValue, substituteConfig } from "../format/config.js";
import type { Pipeline, Reference } from "../format/model.js";
import { syntheticRule } from "../format/rule-settings.js";
import { ensureEnvironment } from "./environments/environment-setup.js";
import { wrapCommand } from "./environments/environment-wrap.js";
import { fileDigest } from "./checkpoint/fingerprint.js";
import { shellQuote } from "../expand/shell-quote.js";

export interface ReferencePlan {
  name: string;
  output: string;
  build: boolean;
  reason: string;
  fingerprint: string;
}

export interface ReferenceBuildResult {
  name: string;
  ok: boolean;
  exitCode: number | null;
  durationMs: number;
  error?: string;
  stderr: string;
}

function checkpointPath(workdir: string): string {
  return join(workdir, ".strand", "reference-checkpoint.json");
}

function readFingerprints(workdir: string): Record<string, string> {
  try {
    const value = JSON.parse(readFileSync(checkpointPath(workdir), "utf8")) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function writeFingerprints(workdir: string, fingerprints: Record<string, string>): void {
  const path = checkpointPath(workdir);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, `${JSON.stringify(fingerprints, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

function resolve(workdir: string, path: string): string {
  return isAbsolute(path) ? path : join(workdir, path);
}

/** Decides which references need building, and why. */
export async function planReferenceBuilds(pipeline: Pipeline): Promise<ReferencePlan[]> {
  const stored = readFingerprints(pipeline.dir);
  const plans: ReferencePlan[] = [];
  for (const reference of pipeline.references) {
    const output = substituteConfig(reference.output, pipeline.config, "path");
    const source = reference.source !== undefined ? substituteConfig(reference.source, pipeline.config, "path") : undefined;
    const hash = createHash("sha256");
    for (const field of [reference.name, source ?? "", output, reference.build, JSON.stringify(reference.environment)]) hash.update(field).update("\0");
    if (source !== undefined) hash.update(fileDigest(resolve(pipeline.dir, source))).update("\0");
    for (const key of configKeysIn(reference.build)) hash.update(`${key}=${renderConfigValue(pipeline.config[key] ?? "", "shell")}`).update("\0");
    const fingerprint = `sha256:${hash.digest("hex")}`;
    let outputTime: number | undefined;
    try {
      outputTime = statSync(resolve(pipeline.dir, output)).mtimeMs;
    } catch {
      outputTime = undefined;
    }
    let reason = "up to date";
    let build = false;
    if (outputTime === undefined) [build, reason] = [true, "output missing"];
    else if (source !== undefined && (statSync(resolve(pipeline.dir, source), { throwIfNoEntry: false })?.mtimeMs ?? 0) > outputTime) [build, reason] = [true, "source is newer than output"];
    else if (stored[reference.name] === undefined) reason = "existing output adopted";
    else if (stored[reference.name] !== fingerprint) [build, reason] = [true, "definition, source or config changed"];
    plans.push({ name: reference.name, output, build, reason, fingerprint });
  }
  return plans;
}

/** The shell text of a reference build: `{source}` quoted, then rendered like a rule `ref:<name>`. */
export function referenceCommand(reference: Reference, pipeline: Pipeline, context: RenderContext): string {
  const source = reference.source !== undefined ? substituteConfig(reference.source, pipeline.config, "path") : "";
  const output = substituteConfig(reference.output, pipeline.config, "path");
  const rule = syntheticRule(`ref:${reference.name}`, { source: pipeline.source, path: ["references"], module: null, namespace: null }, {
    threads: reference.threads,
    memory: reference.memory,
    environment: reference.environment,
  });
  const job: Job = {
    name: rule.name,
    rule,
    template: rule.name,
    bindings: {},
    input: { paths: source ? [source] : [], names: null },
    output: { paths: [output], names: null },
    dependsOn: [],
  };
  const text = renderJobText(reference.build.replaceAll("{source}", shellQuote(source)), job, context);
  const prelude = pipeline.defaults.shell_prelude;
  return prelude !== undefined && prelude.trim() !== "" ? `${prelude}\n${text}` : text;
}

/** Builds one reference in the workdir, logs under `logDir`; records its fingerprint on success. */
export async function buildReference(
  reference: Reference,
  plan: ReferencePlan,
  pipeline: Pipeline,
  context: RenderContext,
  options: { logDir: string; skipEnvSetup: boolean },
): Promise<ReferenceBuildResult> {
  const started = performance.now();
  const stdoutPath = join(options.logDir, `${reference.name}.stdout.log`);
  const stderrPath = join(options.logDir, `${reference.name}.stderr.log`);
  mkdirSync(options.logDir, { recursive: true });
  try {
    await ensureEnvironment(reference.environment, { workdir: pipeline.dir, skipSetup: options.skipEnvSetup, ruleName: `ref:${reference.name}` });
    const command = wrapCommand(reference.environment, referenceCommand(reference, pipeline, context), { workdir: pipeline.dir, machineMemoryMb: context.machine.memoryMb });
    // Loaded when first needed: most runs never call it, and loading it costs every start of strand.
    const { execa } = await import("execa");
    // A shared service's reference builds run in its job sandbox, like any command the pipeline controls.
    const argv = confined(jobConfinementFromEnv(process.env).jobs, ["bash", "-c", command]);
    const result = await execa(argv[0]!, argv.slice(1), { cwd: pipeline.dir, stdin: "ignore", stdout: { file: stdoutPath }, stderr: { file: stderrPath }, reject: false });
    const exitCode = typeof result.exitCode === "number" ? result.exitCode : null;
    const stderr = readFileSync(stderrPath, "utf8").slice(-2048);
    const durationMs = Math.round(performance.now() - started);
    if (exitCode !== 0) return { name: reference.name, ok: false, exitCode, durationMs, stderr, error: `reference build '${reference.name}' failed with exit code ${exitCode}` };
    const fingerprints = readFingerprints(pipeline.dir);
    fingerprints[reference.name] = plan.fingerprint;
    writeFingerprints(pipeline.dir, fingerprints);
    return { name: reference.name, ok: true, exitCode, durationMs, stderr };
  } catch (error) {
    return { name: reference.name, ok: false, exitCode: null, durationMs: Math.round(performance.now() - started), stderr: "", error: (error as Error).message };
  }
}

/** Records fingerprints of references whose outputs were adopted as they are. */
export function adoptReferences(pipeline: Pipeline, plans: ReferencePlan[]): void {
  const adopted = plans.filter((plan) => plan.reason === "existing output adopted");
  if (adopted.length === 0) return;
  const fingerprints = readFingerprints(pipeline.dir);
  for (const plan of adopted) fingerprints[plan.name] = plan.fingerprint;
  writeFingerprints(pipeline.dir, fingerprints);
}
