/**
 * Matching paths against globs (`data/*.fq`) and wildcard templates (`results/{sample}.bam`) without a
 * backtracking regular expression. Patterns come from pipeline files, and a crafted one (`{a}{b}{c}…-x`,
 * `a*a*a*a*…b`) makes a backtracking regex take exponential or high-polynomial time on a path that almost
 * matches. Here every literal part is placed at its earliest possible position, which decides a match
 * exactly in time bounded by pattern length × path length. Only templates whose repeated wildcards must
 * agree (`{sample}/{sample}.bam` with other wildcards beside them) need a search, and it is bounded.
 */

type CharTest = (ch: string) => boolean;
/** A glob segment's atoms: `*`, or a test for one character. */
type GlobAtom = "*" | CharTest;

/** Matches one glob segment (`*`, `?`, `[…]`, `[!…]`; other characters literal) against a name. */
export function globSegmentMatcher(segment: string): (name: string) => boolean {
  const atoms = globAtoms(segment);
  return (name) => matchAtoms(atoms, name);
}

/** Matches a path against a glob whose `*`, `?` and `[…]` stay within one `/`-separated segment. */
export function globPathMatcher(pattern: string): (path: string) => boolean {
  const segments = pattern.split("/").map(globAtoms);
  return (path) => {
    const parts = path.split("/");
    return parts.length === segments.length && parts.every((part, i) => matchAtoms(segments[i]!, part));
  };
}

function globAtoms(segment: string): GlobAtom[] {
  const atoms: GlobAtom[] = [];
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i]!;
    const close = ch === "[" ? segment.indexOf("]", i + 1) : -1;
    if (ch === "*") {
      if (atoms[atoms.length - 1] !== "*") atoms.push("*");
    } else if (ch === "?") atoms.push(() => true);
    else if (close >= 0) {
      atoms.push(charClass(segment.slice(i + 1, close)));
      i = close;
    } else atoms.push((other) => other === ch);
  }
  return atoms;
}

/** A bracket expression's body: characters and ranges, negated by a leading `!` or `^`; a reversed range matches nothing. */
function charClass(body: string): CharTest {
  const negated = body.startsWith("!") || body.startsWith("^");
  const items = negated ? body.slice(1) : body;
  const ranges: [string, string][] = [];
  for (let i = 0; i < items.length; i++) {
    if (items[i + 1] === "-" && i + 2 < items.length) {
      ranges.push([items[i]!, items[i + 2]!]);
      i += 2;
    } else ranges.push([items[i]!, items[i]!]);
  }
  return (ch) => ranges.some(([low, high]) => ch >= low && ch <= high) !== negated;
}

/** The classic wildcard match: on a mismatch, only the latest `*` takes one more character. */
function matchAtoms(atoms: GlobAtom[], text: string): boolean {
  let a = 0;
  let t = 0;
  let star = -1;
  let starText = 0;
  while (t < text.length) {
    const atom = atoms[a];
    if (atom === "*") {
      star = a++;
      starText = t;
    } else if (atom !== undefined && atom(text[t]!)) {
      a++;
      t++;
    } else if (star >= 0) {
      a = star + 1;
      t = ++starText;
    } else return false;
  }
  while (atoms[a] === "*") a++;
  return a === atoms.length;
}

/** A wildcard template: literal parts around `{name}` holes (`literals.length === names.length + 1`). */
export interface WildcardPattern {
  literals: string[];
  names: string[];
  /** Characters a hole never matches (a global regex for one character). */
  forbidden: RegExp;
  /** Some name appears twice (its values must agree), or a literal part holds a character a hole cannot. */
  needsSearch: boolean;
}

const HOLE = /\{(\w+)\}/g;

/**
 * Splits a path at its `{name}` wildcards; undefined when it has none. A hole matches one or more
 * characters other than `forbidden` (whitespace by default, as `\S+` does).
 */
export function wildcardPattern(path: string, forbidden: RegExp = /\s/): WildcardPattern | undefined {
  const literals: string[] = [];
  const names: string[] = [];
  let last = 0;
  for (const match of path.matchAll(HOLE)) {
    literals.push(path.slice(last, match.index));
    names.push(match[1]!);
    last = match.index + match[0].length;
  }
  if (names.length === 0) return undefined;
  literals.push(path.slice(last));
  const needsSearch = new Set(names).size < names.length || literals.some((literal) => forbidden.test(literal));
  return { literals, names, forbidden: new RegExp(forbidden.source, "g"), needsSearch };
}

/**
 * True when a concrete path fits the template: every hole one or more characters other than the
 * forbidden ones, and a name that appears twice stands for the same text both times (as
 * `^(?<n>\S+)…\k<n>$` would say).
 */
export function matchesWildcards(pattern: WildcardPattern, input: string): boolean {
  const { literals, names, forbidden } = pattern;
  const first = literals[0]!;
  const final = literals[literals.length - 1]!;
  if (input.length < first.length + final.length + names.length || !input.startsWith(first) || !input.endsWith(final)) return false;
  const end = input.length - final.length;
  if (!pattern.needsSearch) {
    // No literal holds a forbidden character, so none may appear in the path; then the earliest placement decides.
    forbidden.lastIndex = 0;
    if (forbidden.test(input)) return false;
    let at = first.length;
    for (let i = 1; i < names.length; i++) {
      const found = input.indexOf(literals[i]!, at + 1);
      if (found < 0) return false;
      at = found + literals[i]!.length;
    }
    return at < end;
  }
  return search(pattern, input, end);
}

/** Most holes and steps the agreement search takes; a template beyond them matches nothing. */
const MAX_SEARCH_HOLES = 64;
const MAX_SEARCH_STEPS = 100_000;

function search(pattern: WildcardPattern, input: string, end: number): boolean {
  const { literals, names, forbidden } = pattern;
  if (names.length > MAX_SEARCH_HOLES) return false;
  const bound = new Map<string, string>();
  let steps = 0;
  /** Fills hole `i` from `at`; the literal after it follows, the last hole ends at `end`. */
  const fill = (i: number, at: number): boolean => {
    if (++steps > MAX_SEARCH_STEPS) return false;
    const name = names[i]!;
    const next = literals[i + 1]!;
    const last = i === names.length - 1;
    const known = bound.get(name);
    if (known !== undefined) {
      if (!input.startsWith(known, at)) return false;
      const after = at + known.length;
      if (last) return after === end;
      return input.startsWith(next, after) && fill(i + 1, after + next.length);
    }
    // A hole cannot reach past the first forbidden character after its start.
    forbidden.lastIndex = at;
    const blocked = forbidden.exec(input)?.index ?? input.length;
    if (last) return end > at && end <= blocked;
    for (let found = input.indexOf(next, at + 1); found >= 0 && found <= blocked && found + next.length <= end; found = input.indexOf(next, found + 1)) {
      bound.set(name, input.slice(at, found));
      if (fill(i + 1, found + next.length)) return true;
      bound.delete(name);
      if (steps > MAX_SEARCH_STEPS) return false;
    }
    return false;
  };
  return fill(0, literals[0]!.length);
}
