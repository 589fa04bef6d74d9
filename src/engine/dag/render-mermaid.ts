/**
 * A graph as a mermaid flowchart, the diagram GitHub, GitLab and most markdown viewers draw from a
 * ```` ```mermaid ```` block. Node ids are made from the names but only of letters, digits and `_`, always
 * prefixed (`n_`), so no name can become mermaid syntax (`end`, `graph`, an `o`/`x` that would turn an
 * arrow into a circle or cross edge); the name itself is the quoted label, with mermaid's numeric entity codes (`#34;` for `"`) for
 * the characters that would end or break it.
 */
import type { GraphDrawing } from "./graph-drawing.js";

/** Renders the drawing as `flowchart LR` text: one node line per node, one edge line per edge (dashed for declared order). */
export function renderMermaid(drawing: GraphDrawing): string {
  const ids = mermaidIds(drawing.nodes.map((node) => node.name));
  const lines = ["flowchart LR", `  %% ${comment(drawing.title)}: ${drawing.nodes.length} nodes, ${drawing.edges.length} edges`];
  for (const node of drawing.nodes) lines.push(`  ${ids.get(node.name)!}["${mermaidLabel(node.name)}"]`);
  for (const edge of drawing.edges) lines.push(`  ${ids.get(edge.from)!} ${edge.kind === "declared" ? "-.->" : "-->"} ${ids.get(edge.to)!}`);
  return lines.join("\n");
}

/** A safe, unique mermaid id for each name: `n_` and the name's letters, digits and `_`, numbered on a clash. */
export function mermaidIds(names: string[]): Map<string, string> {
  const ids = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of names) {
    if (ids.has(name)) continue;
    const base = `n_${name.replace(/[^A-Za-z0-9_]/g, "_")}`;
    let id = base;
    for (let suffix = 2; taken.has(id); suffix++) id = `${base}_${suffix}`;
    taken.add(id);
    ids.set(name, id);
  }
  return ids;
}

/** Text for inside `["…"]`: mermaid numeric entity codes (`#34;`, `#35;`, …) for what would end, break or be read as markup. */
export function mermaidLabel(text: string): string {
  return text.replace(/[#"<>&`\\[\]{}|]/g, (char) => `#${char.codePointAt(0)!};`).replace(/[\r\n\t]+/g, " ");
}

/** A `%%` comment ends at the line's end; nothing else in it matters. */
function comment(text: string): string {
  return text.replace(/[\r\n]+/g, " ");
}
