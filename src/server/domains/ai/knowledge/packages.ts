/**
 * Package lookup for the AI's knowledge tool: searches the bundled package index (package-index.json, built by
 * `npm run knowledge:index` from the templates and the corpus) by name first, then by the words of each
 * package's summary and example command. Read-only, bounded and pure.
 */
import indexData from "./package-index.json" with { type: "json" };
import type { IndexedPackage, PackageIndex } from "./package-index-builder.js";
import { sameStem } from "./search-words.js";
import { canonicalPackageName } from "./tool-summaries.js";

/** Longest query read; the rest is ignored. */
export const MAX_PACKAGE_QUERY_CHARS = 200;
/** Most hits one lookup returns. */
export const MAX_PACKAGE_HITS = 20;
/** Pipelines, rules and containers listed per hit: a tool answer must stay small (the counts give the totals). */
const USES_PER_HIT = 5;
const CONTAINERS_PER_HIT = 3;

/** One package found by a lookup, with how well it matched (higher is better); long lists are cut to a few. */
export interface PackageHit extends IndexedPackage {
  pipeline_count: number;
  score: number;
}

function hitOf(entry: IndexedPackage, score: number): PackageHit {
  return {
    ...entry,
    containers: entry.containers.slice(0, CONTAINERS_PER_HIT),
    pipelines: entry.pipelines.slice(0, USES_PER_HIT),
    pipeline_count: entry.pipelines.length,
    rules: entry.rules.slice(0, USES_PER_HIT),
    score,
  };
}

const INDEX = indexData as unknown as PackageIndex;

/** The bundled index as shipped (read-only). */
export function packageIndex(): Readonly<PackageIndex> {
  return INDEX;
}

const STOP_WORDS = new Set(["a", "an", "and", "are", "as", "by", "for", "from", "how", "i", "in", "is", "it", "me", "my", "of", "on", "or", "the", "to", "tool", "tools", "use", "what", "which", "with"]);

/** The search words of a query: lowercased, split on anything but letters, digits and `-_.+`, stop words dropped. */
export function queryWords(query: string): string[] {
  const words = query
    .slice(0, MAX_PACKAGE_QUERY_CHARS)
    .toLowerCase()
    .split(/[^a-z0-9_.+-]+/)
    .map((word) => word.replace(/^[.\-_+]+|[.\-_+]+$/g, ""))
    .filter((word) => word.length >= 2 && !STOP_WORDS.has(word));
  return [...new Set(words)];
}

function textWords(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9_.+-]+/).filter(Boolean);
}

/** How well one query word matches one package (0 = not at all). */
function wordScore(word: string, entry: IndexedPackage, summaryWords: string[], commandWords: Set<string>): number {
  const name = entry.name;
  if (name === word || name === canonicalPackageName(word)) return 100;
  if (entry.commands.some((command) => command.toLowerCase() === word)) return 80;
  if (word.length >= 3 && (name.startsWith(word) || name.split(/[-_]/).includes(word))) return 50;
  if (word.length >= 3 && name.includes(word)) return 30;
  // Summary words count whole or by shared stem (align ~ aligner ~ alignment), so plain-language asks work.
  if (summaryWords.includes(word)) return 12;
  if (word.length >= 4 && summaryWords.some((summaryWord) => sameStem(word, summaryWord))) return 8;
  if (commandWords.has(word)) return 3;
  return 0;
}

/**
 * Packages matching a query, best first: name matches, then program names, then summary and command words.
 * At most `limit` hits (capped at 20); an empty or wordless query finds nothing.
 */
export function lookupPackages(query: string, limit = 10): PackageHit[] {
  const bounded = Math.max(0, Math.min(Math.floor(Number.isFinite(limit) ? limit : 10), MAX_PACKAGE_HITS));
  const words = queryWords(typeof query === "string" ? query : "");
  if (bounded === 0 || words.length === 0) return [];
  const scored: PackageHit[] = [];
  for (const entry of INDEX.packages) {
    const summaryWords = textWords(entry.summary ?? "");
    const commandWords = new Set(textWords(entry.example?.command ?? ""));
    let score = 0;
    for (const word of words) score += wordScore(word, entry, summaryWords, commandWords);
    if (score === 0) continue;
    // Described tools are what people ask for; a bare dependency (libxml2) only wins on its name.
    if (entry.summary !== null) score += 1;
    // Among equals, a tool real pipelines already run is the safer suggestion.
    if (entry.pipelines.length > 0) score += 1;
    scored.push(hitOf(entry, score));
  }
  scored.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, bounded);
}

/** Whether the index has a package of exactly this name (or alias). */
export function hasPackage(name: string): boolean {
  const wanted = canonicalPackageName(name);
  return INDEX.packages.some((entry) => entry.name === wanted);
}
