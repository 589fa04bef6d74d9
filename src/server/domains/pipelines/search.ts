/**
 * Search over saved pipelines and templates, free of HTTP. The store finds candidate pipelines and templates containing any word
 * of the query (name, tags, content) among the pipelines the caller may read; built-in templates are
 * matched here. The ranking (`ranking.ts`) is engine work in the pool: candidates may be many large texts.
 * Only the first 256 KiB of a text are looked at; a candidate the store found by a word further on counts as
 * one content hit.
 */
import type { Caller } from "../../caller.js";
import { engineTasks } from "../../engine-pool.js";
import { ServiceError } from "../../errors.js";
import { searchWords } from "../../store/search-terms.js";
import type { PipelineStore } from "../../store/pipelines/contract.js";
import type { TemplateStore } from "../../store/templates/contract.js";
import { builtInTemplates } from "../templates/service.js";
import type { SearchHit, Searchable } from "./ranking.js";
import type { SearchTasks } from "./tasks.js";

/** Runs a search task in the engine pool. */
const work = engineTasks<SearchTasks>(new URL("./worker.js", import.meta.url));

/** How much of each text the ranking reads. */
const SCANNED_CHARS = 256 * 1024;

/** Ranked hits for a query; SEARCH_ERROR for an empty query. */
export async function searchPipelines(store: Pick<PipelineStore, "searchPipelines"> & Pick<TemplateStore, "searchTemplates">, caller: Caller, query: string, limit = 20): Promise<{ query: string; total: number; hits: SearchHit[] }> {
  const words = searchWords(query);
  if (words.length === 0) throw new ServiceError("SEARCH_ERROR", "the query is empty", { suggestion: "send words to look for, e.g. {\"query\": \"rna-seq salmon\"}" });
  const [pipelines, templates] = await Promise.all([
    store.searchPipelines(query, { visibleTo: caller.admin ? undefined : caller.id, limit: 100 }),
    store.searchTemplates(query, { limit: 100 }),
  ]);
  const scanned = (text: string) => (text.length > SCANNED_CHARS ? text.slice(0, SCANNED_CHARS) : text);
  const items: Searchable[] = [
    ...pipelines.map((pipeline) => ({ id: pipeline.id, kind: "pipeline" as const, name: pipeline.name, tags: pipeline.tags, description: pipeline.description ?? "", content: scanned(pipeline.toml_content), updated: pipeline.updated_at, matched: true })),
    ...templates.map((template) => ({ id: template.id, kind: "template" as const, name: template.name, tags: template.tags, description: template.description ?? "", content: scanned(template.toml_content), updated: template.created_at, matched: true })),
    ...builtInTemplates().map((template) => ({ id: template.id, kind: "template" as const, name: template.name, tags: [...template.tags, template.slug ?? ""], description: `${template.title}. ${template.description}`, content: template.toml_content, updated: "", matched: false })),
  ];
  const hits = await work("rank", { items, words, query }, "ranking the search results");
  return { query, total: hits.length, hits: hits.slice(0, limit) };
}
