/**
 * What the documentation tests need of Markdown: the links of a page (outside code), its headings' anchors
 * as GitHub makes them, and its fenced code blocks with their info strings.
 */

/** One fenced code block: its info string (`sh run`), its text and the line its fence opens on. */
export interface CodeBlock {
  info: string;
  text: string;
  line: number;
}

/** The fenced code blocks of a page, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !new RegExp(`^\\s*${fence[0]}{${fence.length},}\\s*$`).test(lines[j]!)) body.push(lines[j++]!);
    blocks.push({ info: open[3]!.trim(), text: body.join("\n"), line: i + 1 });
    i = j;
  }
  return blocks;
}

/** The page with its fenced code blocks blanked (lines kept, so line numbers stay right) and inline code removed. */
export function withoutCode(markdown: string): string {
  const lines = markdown.split("\n");
  let fence: string | null = null;
  return lines
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === null && marker) {
        fence = marker;
        return "";
      }
      if (fence !== null) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
        return "";
      }
      return line.replace(/(`+)[\s\S]*?\1/g, "");
    })
    .join("\n");
}

/** A link of a page: its target as written and its line. */
export interface PageLink {
  target: string;
  line: number;
}

/** Every inline link and image of a page outside code (`[text](target)`, `![alt](target "title")`). */
export function pageLinks(markdown: string): PageLink[] {
  const links: PageLink[] = [];
  withoutCode(markdown)
    .split("\n")
    .forEach((text, index) => {
      for (const match of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: match[1]!, line: index + 1 });
      for (const match of text.matchAll(/<(?:a|img)\s[^>]*(?:href|src)="([^"]+)"/g)) links.push({ target: match[1]!, line: index + 1 });
    });
  return links;
}

/** GitHub's anchor of a heading's text: lowercased, punctuation but `-` and `_` dropped, spaces to `-`. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/[*`]/g, "");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors a page offers: its headings' slugs (repeats numbered `-1`, `-2` as GitHub does) and explicit `id`/`name` anchors. */
export function pageAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = markdown.split("\n");
  const blanked = withoutCode(markdown).split("\n");
  blanked.forEach((line, index) => {
    // Headings keep their inline code text (GitHub slugs it), so read the original line.
    if (!/^#{1,6}\s/.test(line)) return;
    const slug = githubSlug(text[index]!.replace(/^#{1,6}\s+/, "").replace(/\s+#+\s*$/, ""));
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  });
  for (const match of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}
