/**
 * Search over saved pipelines and templates, free of HTTP. The store finds candidates containing any word
 * of the query (name, tags, content) among the pipelines the caller may read; built-in templates are
 * matched here. Ranking: for each word, a name hit counts most, then a tag, then the description, then the
 * content; a name equal to the whole query gets a bonus. Scores are scaled to 0..1. The snippet is the first
 * line of content that holds a word (or the description, or the name).
 */
import type { Caller } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import { searchWords } from "../../store/search-terms.js";
import type { Store } from "../../store/store.js";
import { builtInTemplates } from "../templates/service.js";

export interface SearchHit {
  id: string;
  kind: "pipeline" | "template";
  name: string;
  snippet: string;
  score: number;
}

interface Searchable {
  id: string;
  kind: SearchHit["kind"];
  name: string;
  tags: string[];
  description: string;
  content: string;
  updated: string;
}

const WEIGHTS = { name: 3, tag: 2, description: 1, content: 0.5, wholeName: 2 };
const PER_WORD = WEIGHTS.name + WEIGHTS.tag + WEIGHTS.description + WEIGHTS.content;
const SNIPPET_LENGTH = 160;

function scoreOf(item: Searchable, words: string[], query: string): number {
  const name = item.name.toLowerCase();
  const tags = item.tags.map((tag) => tag.toLowerCase());
  const description = item.description.toLowerCase();
  const content = item.content.toLowerCase();
  let raw = 0;
  for (const word of words) {
    if (name.includes(word)) raw += WEIGHTS.name;
    if (tags.some((tag) => tag === word)) raw += WEIGHTS.tag;
    else if (tags.some((tag) => tag.includes(word))) raw += WEIGHTS.tag / 2;
    if (description.includes(word)) raw += WEIGHTS.description;
    if (content.includes(word)) raw += WEIGHTS.content;
  }
  if (name === query.trim().toLowerCase()) raw += WEIGHTS.wholeName;
  return Math.min(1, Math.round((raw / (words.length * PER_WORD)) * 1000) / 1000);
}

function clip(line: string): string {
  const trimmed = line.trim();
  return trimmed.length <= SNIPPET_LENGTH ? trimmed : `${trimmed.slice(0, SNIPPET_LENGTH - 1)}…`;
}

function snippetOf(item: Searchable, words: string[]): string {
  const line = item.content.split("\n").find((candidate) => words.some((word) => candidate.toLowerCase().includes(word)));
  return clip(line ?? (item.description || item.name));
}

/** Ranked hits for a query; SEARCH_ERROR for an empty query. */
export async function searchPipelines(store: Store, caller: Caller, query: string, limit = 20): Promise<{ query: string; total: number; hits: SearchHit[] }> {
  const words = searchWords(query);
  if (words.length === 0) throw new ServiceError(400, "SEARCH_ERROR", "the query is empty", { suggestion: "send words to look for, e.g. {\"query\": \"rna-seq salmon\"}" });
  const candidates = await store.searchCandidates(query, { visibleTo: caller.admin ? undefined : caller.id, limit: 100 });
  const items: Searchable[] = [
    ...candidates.pipelines.map((pipeline) => ({ id: pipeline.id, kind: "pipeline" as const, name: pipeline.name, tags: pipeline.tags, description: pipeline.description ?? "", content: pipeline.toml_content, updated: pipeline.updated_at })),
    ...candidates.templates.map((template) => ({ id: template.id, kind: "template" as const, name: template.name, tags: template.tags, description: template.description ?? "", content: template.toml_content, updated: template.created_at })),
    ...builtInTemplates().map((template) => ({ id: template.id, kind: "template" as const, name: template.name, tags: [...template.tags, template.slug ?? ""], description: `${template.title}. ${template.description}`, content: template.toml_content, updated: "" })),
  ];
  const hits = items
    .map((item) => ({ item, score: scoreOf(item, words, query) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || b.item.updated.localeCompare(a.item.updated) || a.item.name.localeCompare(b.item.name))
    .map(({ item, score }) => ({ id: item.id, kind: item.kind, name: item.name, snippet: snippetOf(item, words), score }));
  return { query, total: hits.length, hits: hits.slice(0, limit) };
}
