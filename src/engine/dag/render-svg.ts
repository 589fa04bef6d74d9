/**
 * A graph as one self-contained SVG file, laid out here without graphviz: a column per level (left to
 * right), nodes in a column ordered by where their predecessors sit (one barycentre pass, which untangles
 * most pipelines), edges as curves with an arrowhead, dashed for declared order. Nodes are coloured by
 * rule; each is one `<g class="node">` with a `<title>` holding its full name (long names are shortened
 * on the box). Text is XML-escaped, so the file is well-formed whatever the names hold.
 */
import type { GraphDrawing } from "./graph-drawing.js";

const PALETTE = ["#dbe9f6", "#fde2c8", "#d8efd4", "#ecdcea", "#d6ecea", "#fbf1c7", "#eaddd5", "#e9e7e5", "#fde0e4", "#dcecea"];
const STROKES = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#c9a227", "#9c755f", "#8f8a86", "#e8738a", "#5e9c96"];
const LAYOUT = { charWidth: 7, maxLabel: 40, nodeHeight: 28, rowGap: 14, columnGap: 70, margin: 20, titleHeight: 28, padding: 12 } as const;

/** Renders the drawing as an SVG document (with its XML declaration). */
export function renderSvg(drawing: GraphDrawing): string {
  const levels = orderedLevels(drawing);
  const rules = [...new Set(drawing.nodes.map((node) => node.rule))];
  const widths = levels.map((column) => Math.max(60, ...column.map((node) => labelOf(node.name).length * LAYOUT.charWidth + 2 * LAYOUT.padding)));
  const place = new Map<string, { x: number; y: number; width: number }>();
  let x = LAYOUT.margin;
  levels.forEach((column, level) => {
    column.forEach((node, row) => place.set(node.name, { x, y: LAYOUT.margin + LAYOUT.titleHeight + row * (LAYOUT.nodeHeight + LAYOUT.rowGap), width: widths[level]! }));
    x += widths[level]! + LAYOUT.columnGap;
  });
  const tallest = Math.max(0, ...levels.map((column) => column.length));
  const width = Math.max(x - LAYOUT.columnGap + LAYOUT.margin, 240);
  const height = LAYOUT.margin * 2 + LAYOUT.titleHeight + Math.max(0, tallest * (LAYOUT.nodeHeight + LAYOUT.rowGap) - LAYOUT.rowGap);

  const edges = drawing.edges.map((edge) => {
    const from = place.get(edge.from)!;
    const to = place.get(edge.to)!;
    const x1 = from.x + from.width;
    const y1 = from.y + LAYOUT.nodeHeight / 2;
    const x2 = to.x - 2;
    const y2 = to.y + LAYOUT.nodeHeight / 2;
    const bend = Math.max(20, (x2 - x1) / 2);
    const d = `M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}`;
    return `<path class="edge${edge.kind === "declared" ? " declared" : ""}" d="${d}"><title>${escapeXml(`${edge.from} → ${edge.to}`)}</title></path>`;
  });
  const nodes = drawing.nodes.map((node) => {
    const at = place.get(node.name)!;
    const colour = rules.indexOf(node.rule) % PALETTE.length;
    return (
      `<g class="node" data-name="${escapeXml(node.name)}" data-rule="${escapeXml(node.rule)}" data-level="${node.level}">` +
      `<title>${escapeXml(node.name === node.rule ? node.name : `${node.name} (rule ${node.rule})`)}</title>` +
      `<rect x="${at.x}" y="${at.y}" width="${at.width}" height="${LAYOUT.nodeHeight}" rx="6" fill="${PALETTE[colour]}" stroke="${STROKES[colour]}"/>` +
      `<text x="${at.x + at.width / 2}" y="${at.y + LAYOUT.nodeHeight / 2 + 4}" text-anchor="middle">${escapeXml(labelOf(node.name))}</text></g>`
    );
  });
  const title = `${drawing.title}: ${drawing.nodes.length} nodes, ${drawing.edges.length} edges`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<title>${escapeXml(title)}</title>`,
    "<defs>",
    '<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#57606a"/></marker>',
    "<style>.edge{fill:none;stroke:#57606a;stroke-width:1.2;marker-end:url(#arrow)}.edge.declared{stroke-dasharray:5 4}.node text{fill:#1f2328}</style>",
    "</defs>",
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${LAYOUT.margin}" y="${LAYOUT.margin + 12}" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
    `<g class="edges">`,
    ...edges,
    "</g>",
    `<g class="nodes">`,
    ...nodes,
    "</g>",
    "</svg>",
  ].join("\n");
}

/** Control characters other than tab and line breaks, non-characters, and lone surrogates: not allowed anywhere in XML 1.0. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for XML content and attributes, and replaces characters XML 1.0 cannot hold at all. */
export function escapeXml(text: string): string {
  return text
    .replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[char]!)
    .replace(NOT_XML, "\uFFFD");
}

function labelOf(name: string): string {
  return name.length > LAYOUT.maxLabel ? `${name.slice(0, LAYOUT.maxLabel - 1)}…` : name;
}

/** Nodes by level; within a level, by the mean row of their predecessors (ties keep display order). */
function orderedLevels(drawing: GraphDrawing): GraphDrawing["nodes"][] {
  const levels: GraphDrawing["nodes"][] = [];
  for (const node of drawing.nodes) (levels[node.level] ??= []).push(node);
  const compact = levels.filter((column) => column !== undefined && column.length > 0);
  const predecessors = new Map<string, string[]>();
  for (const edge of drawing.edges) {
    const list = predecessors.get(edge.to);
    if (list) list.push(edge.from);
    else predecessors.set(edge.to, [edge.from]);
  }
  const row = new Map<string, number>();
  for (const column of compact) {
    const keyed = column.map((node, index) => {
      const rows = (predecessors.get(node.name) ?? []).map((name) => row.get(name)).filter((value): value is number => value !== undefined);
      return { node, index, key: rows.length > 0 ? rows.reduce((sum, value) => sum + value, 0) / rows.length : index };
    });
    keyed.sort((a, b) => a.key - b.key || a.index - b.index);
    keyed.forEach((entry, index) => row.set(entry.node.name, index));
    column.splice(0, column.length, ...keyed.map((entry) => entry.node));
  }
  return compact;
}
