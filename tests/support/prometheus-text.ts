/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), for tests: every line must be
 * a HELP, a TYPE, a comment or a sample of a declared family with well-formed labels and value, and
 * histograms must be complete (cumulative buckets ending at +Inf equal to _count, a _sum). Anything else
 * throws with the line number, so a scraper's complaint shows up as a failing test.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: string;
  help: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

function parseValue(text: string, line: number): number {
  // Prometheus reads values with Go's ParseFloat, which takes NaN and Inf in any case (prom-client writes "Nan").
  if (/^nan$/i.test(text)) return Number.NaN;
  if (/^\+?inf$/i.test(text)) return Number.POSITIVE_INFINITY;
  if (/^-inf$/i.test(text)) return Number.NEGATIVE_INFINITY;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`line ${line}: '${text}' is not a sample value`);
  return Number(text);
}

/** Reads `{a="x",b="y\"z"}` from `text` at `start`; returns the labels and the index after the `}`. */
function parseLabels(text: string, start: number, line: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let at = start + 1;
  while (text[at] !== "}") {
    const equals = text.indexOf("=", at);
    const name = text.slice(at, equals);
    if (!LABEL_NAME.test(name)) throw new Error(`line ${line}: bad label name '${name}'`);
    if (text[equals + 1] !== '"') throw new Error(`line ${line}: label ${name} has no quoted value`);
    let value = "";
    let i = equals + 2;
    for (; i < text.length && text[i] !== '"'; i++) {
      if (text[i] === "\\") {
        const next = text[++i];
        if (next === "n") value += "\n";
        else if (next === "\\" || next === '"') value += next;
        else throw new Error(`line ${line}: bad escape \\${next} in label ${name}`);
      } else value += text[i];
    }
    if (text[i] !== '"') throw new Error(`line ${line}: unterminated value of label ${name}`);
    if (name in labels) throw new Error(`line ${line}: label ${name} twice`);
    labels[name] = value;
    at = i + 1;
    if (text[at] === ",") at++;
    else if (text[at] !== "}") throw new Error(`line ${line}: expected , or } after label ${name}`);
  }
  return { labels, end: at + 1 };
}

/** The family a sample belongs to: its own name, or a histogram's or summary's name without the suffix. */
function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  if (families.has(name)) return families.get(name);
  const base = name.replace(/_(bucket|sum|count|created)$/, "");
  const family = families.get(base);
  return family && (family.type === "histogram" || family.type === "summary") ? family : undefined;
}

/** Parses the text; throws on the first line that does not follow the format. */
export function parsePrometheusText(text: string): Map<string, Family> {
  if (!text.endsWith("\n")) throw new Error("the exposition must end with a newline");
  const families = new Map<string, Family>();
  text.split("\n").forEach((raw, index) => {
    const line = index + 1;
    if (raw === "") return;
    if (raw.startsWith("#")) {
      const match = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(raw);
      if (!match) return; // a plain comment
      const [, kind, name, rest] = match as unknown as [string, string, string, string];
      if (!NAME.test(name)) throw new Error(`line ${line}: bad metric name '${name}'`);
      const family = families.get(name) ?? { name, type: "", help: "", samples: [] };
      if (kind === "TYPE") {
        if (!TYPES.has(rest)) throw new Error(`line ${line}: unknown type '${rest}'`);
        if (family.samples.length > 0) throw new Error(`line ${line}: TYPE of ${name} after its samples`);
        family.type = rest;
      } else family.help = rest;
      families.set(name, family);
      return;
    }
    const nameEnd = raw.search(/[{ ]/);
    const name = raw.slice(0, nameEnd);
    if (!NAME.test(name)) throw new Error(`line ${line}: bad metric name '${name}'`);
    let labels: Record<string, string> = {};
    let rest = raw.slice(nameEnd);
    if (rest.startsWith("{")) {
      const parsed = parseLabels(raw, nameEnd, line);
      labels = parsed.labels;
      rest = raw.slice(parsed.end);
    }
    const parts = rest.trim().split(" ");
    if (!rest.startsWith(" ") || parts.length < 1 || parts.length > 2) throw new Error(`line ${line}: expected 'value [timestamp]' after the labels`);
    if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) throw new Error(`line ${line}: bad timestamp '${parts[1]}'`);
    const family = familyOf(name, families);
    if (!family || family.type === "") throw new Error(`line ${line}: sample ${name} of a family without a TYPE line`);
    family.samples.push({ name, labels, value: parseValue(parts[0]!, line) });
  });
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family);
  return families;
}

/** Each label set of a histogram: cumulative buckets ending with +Inf, equal to _count, and a _sum. */
function checkHistogram(family: Family): void {
  const series = new Map<string, { buckets: [number, number][]; sum?: number; count?: number }>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const entry = series.get(key) ?? { buckets: [] };
    if (sample.name.endsWith("_bucket")) {
      if (le === undefined) throw new Error(`${family.name}: a bucket without le`);
      entry.buckets.push([parseValue(le, 0), sample.value]);
    } else if (sample.name.endsWith("_sum")) entry.sum = sample.value;
    else if (sample.name.endsWith("_count")) entry.count = sample.value;
    series.set(key, entry);
  }
  for (const [key, entry] of series) {
    const last = entry.buckets.at(-1);
    if (!last || last[0] !== Number.POSITIVE_INFINITY) throw new Error(`${family.name} ${key}: no +Inf bucket`);
    for (let i = 1; i < entry.buckets.length; i++) {
      if (entry.buckets[i]![0] <= entry.buckets[i - 1]![0] || entry.buckets[i]![1] < entry.buckets[i - 1]![1]) throw new Error(`${family.name} ${key}: buckets not cumulative`);
    }
    if (entry.count !== last[1] || entry.sum === undefined) throw new Error(`${family.name} ${key}: _count or _sum missing or off`);
  }
}
