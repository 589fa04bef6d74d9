/**
 * Every relative link and anchor in README.md and docs/ leads somewhere: a file of the repository and, with
 * `#anchor`, a heading of that page. Comments in src/ that cite the documentation cite a page and a section
 * that exist, and none cites a specification a clone does not have.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { pageAnchors, pageLinks } from "../support/markdown-links.js";
import { sourceFiles } from "../support/import-graph.js";
import { PROJECT_ROOT } from "../support/strand-cli.js";

function markdownFiles(dir: string): string[] {
  return readdirSync(join(PROJECT_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

const PAGES = ["README.md", ...markdownFiles("docs")];
const anchorCache = new Map<string, Set<string>>();

function anchorsOf(path: string): Set<string> {
  let anchors = anchorCache.get(path);
  if (!anchors) anchorCache.set(path, (anchors = pageAnchors(readFileSync(join(PROJECT_ROOT, path), "utf8"))));
  return anchors;
}

/** Why `target`, linked from `from`, leads nowhere (undefined when it leads somewhere). */
function brokenLink(from: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:, …
  if (target.startsWith("/")) return "an absolute path (links must be relative to the page)";
  const [pathPart, anchor] = target.split("#", 2) as [string, string | undefined];
  const file = pathPart === "" ? from : relative(PROJECT_ROOT, resolve(PROJECT_ROOT, dirname(from), decodeURI(pathPart)));
  if (file.startsWith("..")) return "it leaves the repository (a clone does not have what is beside it)";
  if (!existsSync(join(PROJECT_ROOT, file))) return `${file} does not exist`;
  if (anchor === undefined) return undefined;
  if (!file.endsWith(".md") || statSync(join(PROJECT_ROOT, file)).isDirectory()) return `#${anchor} on ${file}, which is not a Markdown page`;
  return anchorsOf(file).has(decodeURIComponent(anchor)) ? undefined : `${file} has no heading with the anchor #${anchor}`;
}

describe("the documentation's links", () => {
  it("covers README.md and every page under docs/", () => {
    expect(PAGES).toContain("README.md");
    expect(PAGES.length).toBeGreaterThan(5);
  });

  for (const page of PAGES) {
    it(`${page}: every relative link and anchor leads somewhere`, () => {
      const broken = pageLinks(readFileSync(join(PROJECT_ROOT, page), "utf8")).flatMap(({ target, line }) => {
        const why = brokenLink(page, target);
        return why ? [`${page}:${line}: ${target} — ${why}`] : [];
      });
      expect(broken).toEqual([]);
    });
  }
});

/** A citation of the documentation in a comment: a page, an anchor, pipeline-format sections, a decision. */
const CITATION = /docs\/[\w./-]+\.md(?:#[\w-]+)?(?: §[\d.]+[a-z]?(?:(?:,| and) §[\d.]+[a-z]?)*)?(?:, decision \d+)?/g;
/** Sections of other standards, which a comment may cite. */
const STANDARD_SECTION = /\b(?:RFC \d+|SAMv1|RFC\d+) §[\d.]+/g;
/** What a citation of a specification outside the repository looks like. */
const OUTSIDE_CITATION = /§\s?\d|\b[Dd]ecision \d+|\bapi-decisions\b|\bservice-spec\b|\bsection \d+\.\d+/;

function headingNumbers(path: string): Set<string> {
  const numbers = new Set<string>();
  for (const match of readFileSync(join(PROJECT_ROOT, path), "utf8").matchAll(/^#{2,4} (?:Decision )?(\d+(?:\.\d+)*[a-z]?)[.:]? /gm)) numbers.add(match[1]!);
  return numbers;
}

/** Every line of the source files, with its place (`path:line`). */
function sourceLines(): { line: string; at: string }[] {
  const files = sourceFiles(PROJECT_ROOT, "src").filter((path) => path.endsWith(".ts") || path.endsWith(".tsx"));
  return files.flatMap((path) =>
    readFileSync(join(PROJECT_ROOT, path), "utf8")
      .split("\n")
      .map((line, index) => ({ line, at: `${path}:${index + 1}` })),
  );
}

describe("citations of the documentation in src/", () => {
  const lines = sourceLines();

  it("name pages, anchors and sections that exist", () => {
    const broken: string[] = [];
    for (const { line, at } of lines) {
      for (const match of line.matchAll(CITATION)) {
        const [, page, anchor] = /^(docs\/[\w./-]+\.md)(?:#([\w-]+))?/.exec(match[0])!;
        const where = `${at}: ${match[0]}`;
        if (!existsSync(join(PROJECT_ROOT, page!))) {
          broken.push(`${where} — ${page} does not exist`);
          continue;
        }
        if (anchor && !anchorsOf(page!).has(anchor)) broken.push(`${where} — no heading #${anchor}`);
        const numbers = headingNumbers(page!);
        for (const section of match[0].matchAll(/§([\d.]+[a-z]?)/g)) if (!numbers.has(section[1]!)) broken.push(`${where} — no section ${section[1]}`);
        const decision = /, decision (\d+)$/.exec(match[0])?.[1];
        if (decision && !numbers.has(decision)) broken.push(`${where} — no decision ${decision}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("never cite a specification outside the repository", () => {
    const outside: string[] = [];
    for (const { line, at } of lines) {
      const rest = line.replace(CITATION, "").replace(STANDARD_SECTION, "");
      if (OUTSIDE_CITATION.test(rest)) outside.push(`${at}: ${line.trim().slice(0, 160)}`);
    }
    expect(outside, "cite the page under docs/ that holds it, e.g. docs/reference/pipeline-format.md §5.8").toEqual([]);
  });
});
