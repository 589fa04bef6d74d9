/**
 * The ranking of search candidates, pure and run in the engine pool: for each word, a name hit counts most,
 * then a tag, then the description, then the content; a name equal to the whole query gets a bonus. Scores
 * are scaled to 0..1. The snippet is the first line of content that holds a word (or the description, or
 * the name).
 */

export interface SearchHit {
  id: string;
  kind: "pipeline" | "template";
  name: string;
  snippet: string;
  score: number;
}

/** A candidate as the ranking sees it. */
export interface Searchable {
  id: string;
  kind: SearchHit["kind"];
  name: string;
  tags: string[];
  description: string;
  content: string;
  updated: string;
  /** The store matched it (by name, tags or the whole content): it counts even if the scanned part has no word. */
  matched: boolean;
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
  if (raw === 0 && item.matched) raw = WEIGHTS.content; // a word beyond the scanned part of the text
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

/** Every item with a score above 0, best first, with its snippet. */
export function rankHits(input: { items: Searchable[]; words: string[]; query: string }): SearchHit[] {
  const { items, words, query } = input;
  return items
    .map((item) => ({ item, score: scoreOf(item, words, query) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || b.item.updated.localeCompare(a.item.updated) || a.item.name.localeCompare(b.item.name))
    .map(({ item, score }) => ({ id: item.id, kind: item.kind, name: item.name, snippet: snippetOf(item, words), score }));
}
