/**
 * Translate: a sentence (and optionally what the data looks like) into a pipeline the engine has already
 * validated. The model drafts; the engine checks every draft, parse errors included; errors go back to the
 * model for a bounded number of corrections. Template names enter the prompt as hints only: when
 * generation fails, a matching template is named in the failure message, and no pipeline is ever made
 * without the model. Identical requests of one user are answered from a bounded cache.
 */
import { randomUUID } from "node:crypto";
import type { ModelMessage } from "ai";
import { ServiceError } from "../../errors.js";
import { BoundedCache } from "./bounded-cache.js";
import { ChainFailure, type Harness } from "./harness.js";
import type { AiKnowledge } from "./read-tools.js";
import { readTools } from "./read-tools.js";
import type { AiReader, DraftValidation, RuleFacts, TemplateHint } from "./reader.js";

/** Correction rounds after the first draft. */
export const MAX_CORRECTIONS = 3;

/** What the caller asks for. */
export interface TranslateRequest {
  intent: string;
  /** What the data looks like (formats, pairing, samples, organism…): shapes the prompt and the cache key. */
  data?: Record<string, unknown> | null;
}

/** One rule of the draft, explained. */
export interface DraftStep {
  rule: string;
  purpose: string;
  tool: string;
  key_params: string;
  why_chosen: string;
}

/** The answer of translate (and the data of the stream's `done` event). */
export interface TranslateResult {
  pipeline_id: string;
  toml_content: string;
  explanation: { summary: string; steps: DraftStep[] };
  /** Other tools for the draft's steps, from strand's notes on each kind of analysis (derived from the draft, not from keywords). */
  alternatives: { rule: string; tool: string; alternatives: string[]; reason: string }[];
  confidence: number;
  validation: { valid: boolean; warnings: { code: string; message: string; suggestion?: string | null }[] };
  provider: { provider: string; model: string };
  rounds: number;
  cached: boolean;
}

/** Progress of a translation, as the stream's `progress` events carry it. */
export type TranslateProgress =
  | { step: "intent"; message: string; intent: string }
  | { step: "match"; message: string; templates_count: number }
  | { step: "generate"; message: string; round: number; provider: string }
  | { step: "validate"; message: string; round: number; valid: boolean; errors: { code: string; message: string }[] }
  | { step: "correct"; message: string; round: number }
  | { step: "fallback"; message: string; provider: string };

/** Drafts kept for a while by id: they are never saved by themselves (the user saves the text). */
export const drafts = new BoundedCache<string, TranslateResult & { owner: string }>({ entries: 256, ttlMs: 60 * 60 * 1000 });

/** Answers to identical requests (per user, intent and data), so asking twice does not call the model twice. */
const answered = new BoundedCache<string, TranslateResult>({ entries: 128, ttlMs: 60 * 60 * 1000 });

/** Forgets every cached answer (tests; a change of provider settings). */
export function forgetTranslations(): void {
  answered.clear();
}

/** Translates an intent into a validated draft, reporting each step; AI_TRANSLATE_ERROR when no valid draft comes. */
export async function translate(input: {
  request: TranslateRequest;
  owner: string;
  harness: Harness;
  reader: AiReader;
  knowledge: AiKnowledge;
  signal?: AbortSignal;
  onProgress?(progress: TranslateProgress): void;
}): Promise<TranslateResult> {
  const { request, harness, reader, knowledge } = input;
  const intent = request.intent.trim();
  const progress = input.onProgress ?? (() => {});
  progress({ step: "intent", message: "reading what you asked for", intent });
  const key = `${input.owner}|${intent.toLowerCase().replace(/\s+/g, " ")}|${stableJson(request.data ?? null)}`;
  const templates = await reader.templates();
  const matches = knowledge.matchTemplates(intent, templates).filter((match) => match.score > 0);
  progress({ step: "match", message: `${templates.length} templates offered to the model as hints`, templates_count: templates.length });
  const cached = answered.get(key);
  if (cached) return { ...cached, cached: true };

  const messages: ModelMessage[] = [{ role: "user", content: userPrompt(intent, request.data, templates, matches) }];
  const tools = readTools(knowledge, reader);
  let validation: DraftValidation | undefined;
  let toml: string | null = null;
  let provider = harness.primary;
  for (let round = 0; round <= MAX_CORRECTIONS; round++) {
    progress({ step: "generate", message: round === 0 ? "writing the pipeline" : `correcting the pipeline (round ${round} of ${MAX_CORRECTIONS})`, round, provider: provider?.provider ?? "" });
    let reply: string;
    try {
      const answer = await harness.call({
        task: "translate",
        system: knowledge.systemPrompt("translate"),
        messages,
        tools,
        signal: input.signal,
        onFallback: (failure, next) => progress({ step: "fallback", message: `${failure.message}; trying ${next.kind}`, provider: next.kind }),
      });
      reply = answer.text;
      provider = { provider: answer.candidate.kind, model: answer.candidate.model, api_url: answer.candidate.baseUrl, source: answer.candidate.source };
    } catch (error) {
      if (error instanceof ChainFailure) throw generationFailed(error, matches);
      throw error;
    }
    messages.push({ role: "assistant", content: reply });
    toml = knowledge.extractToml(reply);
    validation = toml === null ? noPipeline() : await reader.validate(toml);
    progress({ step: "validate", message: validation.valid ? "the engine accepts the pipeline" : `the engine found ${validation.errors.length} error(s)`, round, valid: validation.valid, errors: validation.errors.map(({ code, message }) => ({ code, message })) });
    if (validation.valid) break;
    if (round === MAX_CORRECTIONS) break;
    progress({ step: "correct", message: "sending the errors back to the model", round: round + 1 });
    messages.push({ role: "user", content: correctionPrompt(validation, toml) });
  }
  if (!validation?.valid || toml === null) {
    const errors = (validation?.errors ?? []).map((error) => `${error.code}: ${error.message}`).join("; ");
    throw new ServiceError("AI_TRANSLATE_ERROR", `the model's pipeline still had errors after ${MAX_CORRECTIONS} corrections: ${errors}`, { suggestion: templateHint(matches) ?? "describe the analysis in more detail (inputs, tools, outputs), or start from a template" });
  }
  const rules = await reader.rules(toml).catch(() => [] as RuleFacts[]);
  const rounds = messages.filter((message) => message.role === "assistant").length;
  const result: TranslateResult = {
    pipeline_id: randomUUID(),
    toml_content: toml,
    explanation: { summary: `${rules.length} rule(s): ${rules.map((rule) => rule.name).join(" → ")}`, steps: rules.map((rule) => explainRule(rule, knowledge)) },
    alternatives: alternativesOf(rules.map((rule) => explainRule(rule, knowledge)), knowledge),
    confidence: confidenceOf(rounds, validation.warnings.length, provider?.source),
    validation: { valid: true, warnings: validation.warnings.map(({ code, message, suggestion }) => ({ code, message, suggestion: suggestion ?? null })) },
    provider: { provider: provider?.provider ?? "", model: provider?.model ?? "" },
    rounds,
    cached: false,
  };
  answered.set(key, result);
  drafts.set(result.pipeline_id, { ...result, owner: input.owner });
  return result;
}

/** The failure when every provider failed: each named, and a matching template suggested. */
export function generationFailed(error: ChainFailure, matches: { name: string }[]): ServiceError {
  if (error.cancelled) return new ServiceError("AI_TRANSLATE_ERROR", "the request was cancelled");
  const hint = templateHint(matches);
  return new ServiceError("AI_TRANSLATE_ERROR", `AI generation failed with every provider: ${error.message}`, { suggestion: hint ?? "check the provider settings with POST /api/ai/test" });
}

function templateHint(matches: { name: string }[]): string | undefined {
  return matches[0] ? `Try the ${matches[0].name} template` : undefined;
}

function userPrompt(intent: string, data: Record<string, unknown> | null | undefined, templates: TemplateHint[], matches: { name: string }[]): string {
  const parts = [`## Request\n${intent}`];
  if (data && Object.keys(data).length > 0) parts.push(`## The data\n${JSON.stringify(data, null, 2).slice(0, 4000)}`);
  const hinted = [...new Set([...matches.map((match) => match.name), ...templates.map((template) => template.name)])].slice(0, 5);
  const described = hinted.map((name) => `- ${name}: ${templates.find((template) => template.name === name)?.description ?? ""}`);
  if (described.length > 0) parts.push(`## Templates that exist (hints only; write the pipeline yourself)\n${described.join("\n")}`);
  parts.push("## Task\nWrite the complete strand pipeline for this request as one ```toml block.");
  return parts.join("\n\n");
}

function correctionPrompt(validation: DraftValidation, toml: string | null): string {
  const errors = validation.errors.map((error) => `- ${error.code}${error.line ? ` (line ${error.line})` : ""}: ${error.message}${error.suggestion ? ` — ${error.suggestion}` : ""}`);
  const heading = toml === null ? "Your reply did not contain a pipeline in a ```toml block." : "The strand engine rejected the pipeline:";
  return `${heading}\n${errors.join("\n")}\n\nFix every error and reply with the whole corrected pipeline as one \`\`\`toml block.`;
}

function noPipeline(): DraftValidation {
  return { valid: false, errors: [{ code: "PARSE_ERROR", message: "the reply contains no TOML pipeline", suggestion: "answer with one ```toml fenced block holding the pipeline" } as DraftValidation["errors"][number]], warnings: [] };
}

function explainRule(rule: RuleFacts, knowledge: AiKnowledge): DraftStep {
  const tool = commandTool(rule.shell) ?? rule.environment;
  const hit = knowledge.lookupPackages(tool, 1)[0] as { name?: string; summary?: string } | undefined;
  const known = hit?.name?.toLowerCase() === tool.toLowerCase() ? hit.summary : undefined;
  return {
    rule: rule.name,
    purpose: rule.description ?? "",
    tool,
    key_params: [`threads: ${rule.threads}`, rule.memory ? `memory: ${rule.memory}` : undefined].filter(Boolean).join(", "),
    why_chosen: known ?? (rule.description ? `${tool} does this step: ${rule.description}` : `${tool} runs this step`),
  };
}

/** For each step whose tool strand's analysis notes know, the other tools of that step. */
function alternativesOf(steps: DraftStep[], knowledge: AiKnowledge): TranslateResult["alternatives"] {
  const found: TranslateResult["alternatives"] = [];
  for (const step of steps) {
    const tool = step.tool.toLowerCase();
    for (const kind of knowledge.lookupDomain(tool) as { title?: string; steps?: { step: string; tools: string[] }[] }[]) {
      const known = kind.steps?.find((candidate) => candidate.tools.some((name) => name.toLowerCase() === tool));
      if (!known) continue;
      const others = known.tools.filter((name) => name.toLowerCase() !== tool);
      if (others.length > 0) found.push({ rule: step.rule, tool: step.tool, alternatives: others, reason: `other tools for ${known.step} (${kind.title ?? "this analysis"})` });
      break;
    }
  }
  return found;
}

/** The program a shell command starts (skipping assignments and common wrappers). */
function commandTool(shell: string | null): string | undefined {
  if (!shell) return undefined;
  for (const word of shell.trim().split(/\s+/)) {
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || ["set", "-euo", "pipefail;", "mkdir", "-p", "env", "time", "nice"].includes(word)) continue;
    const cleaned = word.replace(/^[({]+/, "").replace(/[;|&)]+$/, "");
    if (cleaned && !cleaned.startsWith("{") && !cleaned.startsWith("-")) return cleaned.split("/").pop();
  }
  return undefined;
}

/** Confidence from how the draft came to be: fewer corrections and warnings, and the first provider, score higher. */
function confidenceOf(rounds: number, warnings: number, source: string | undefined): number {
  const score = 0.9 - 0.1 * (rounds - 1) - 0.03 * Math.min(warnings, 5) - (source === "discovered" || source === "local" ? 0.05 : 0);
  return Math.round(Math.max(0.3, Math.min(0.95, score)) * 100) / 100;
}

/** JSON with sorted keys, for cache keys. */
function stableJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(",")}}`;
}
