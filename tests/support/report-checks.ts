/**
 * Checks shared by the report tests (engine, command line, service): a small pipeline with one failing
 * rule, and what every report must be — every section, in order, in one file that loads nothing.
 */
import { expect } from "vitest";

/** Two samples made, then one rule whose command prints a script tag to stderr and calls a tool that is not there. */
export const FAILING_PIPELINE = `version = "2.0.1"

[[sample_groups]]
name = "cohort"
samples = ["S1", "S2"]

[[rules]]
name = "make"
output = ["out/{sample}.txt"]
shell = "echo '<b>made</b>' {sample} > {output}"

[[rules]]
name = "broken"
input = ["out/{sample}.txt"]
output = ["bad/{sample}.txt"]
shell = "echo '<script>alert(1)</script>' >&2; no_such_tool_for_report {input} > {output}"
`;

/** The section ids every report has, in order. */
export const REPORT_SECTIONS = ["summary", "rules", "timeline", "resources", "failures", "pipeline", "environment"];

/** Checks that a report is one self-contained HTML file: no scripts, nothing fetched (no http(s) in src or href), no raw script tags. */
export function expectSelfContained(html: string): void {
  expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/<(link|iframe|object|embed|img)\b/i);
  // Escaped text holds no "<", so every "<name …>" is a real tag: its src and href point inside the file.
  for (const [tag] of html.matchAll(/<[a-zA-Z][^>]*>/g)) {
    for (const [, name, value] of tag.matchAll(/\s((?:xlink:)?href|src)\s*=\s*"([^"]*)"/gi)) expect(value, `${name} in ${tag}`).toMatch(/^#[\w-]+$/);
    expect(tag).not.toMatch(/https?:/i);
  }
  expect(html).not.toMatch(/url\(\s*["']?(https?:)?\/\//i);
  expect(html).not.toMatch(/@import/i);
}

/** Checks that a report holds every section, in order. */
export function expectEverySection(html: string): void {
  const positions = REPORT_SECTIONS.map((id) => html.indexOf(`<section id="${id}">`));
  for (const [index, position] of positions.entries()) expect(position, REPORT_SECTIONS[index]).toBeGreaterThan(0);
  expect([...positions].sort((a, b) => a - b)).toEqual(positions);
}
