/**
 * Semantic versions (semver 2.0.0) and the npm range syntax a plugin's `strand_version` is written in:
 * comparators (`<`, `<=`, `>`, `>=`, `=`), caret and tilde ranges, x-ranges (`1.x`, `1.2.*`, `*`), hyphen
 * ranges (`1.2.0 - 2`), sets joined by whitespace (all must hold) and alternatives joined by `||`. As in
 * npm, a pre-release version satisfies a set only when one of its comparators names the same
 * major.minor.patch with a pre-release.
 */

/** A parsed semantic version. */
export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  prerelease: (string | number)[];
}

const NUMBER = "0|[1-9]\\d*";
const PRERELEASE_ID = "(?:0|[1-9]\\d*|\\d*[A-Za-z-][0-9A-Za-z-]*)";
const SEMVER = new RegExp(`^(${NUMBER})\\.(${NUMBER})\\.(${NUMBER})(?:-(${PRERELEASE_ID}(?:\\.${PRERELEASE_ID})*))?(?:\\+([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?$`);

/** Parses a strict semantic version (no `v` prefix, no leading zeros); null when it is not one. */
export function parseSemVer(text: string): SemVer | null {
  const match = SEMVER.exec(text);
  if (!match) return null;
  const prerelease = match[4] ? match[4].split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part)) : [];
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]), prerelease };
}

/** Semver precedence: negative, zero or positive (build metadata is ignored). */
export function compareSemVer(a: SemVer, b: SemVer): number {
  for (const key of ["major", "minor", "patch"] as const) if (a[key] !== b[key]) return a[key] - b[key];
  if (a.prerelease.length === 0 || b.prerelease.length === 0) return b.prerelease.length - a.prerelease.length;
  for (let i = 0; i < Math.max(a.prerelease.length, b.prerelease.length); i++) {
    const x = a.prerelease[i];
    const y = b.prerelease[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    if (typeof x === "number") return -1;
    if (typeof y === "number") return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

type Operator = "<" | "<=" | ">" | ">=" | "=";
interface Comparator {
  operator: Operator;
  version: SemVer;
}
/** A set of comparators that must all hold. */
type ComparatorSet = Comparator[];

/** A range that does not parse (the message says which part). */
export class VersionRangeError extends Error {}

const version = (major: number, minor: number, patch: number, prerelease: (string | number)[] = []): SemVer => ({ major, minor, patch, prerelease });
/** The lowest version of a major.minor.patch, below all its pre-releases (npm's `-0`). */
const floor = (major: number, minor: number, patch: number): SemVer => version(major, minor, patch, [0]);

interface Partial {
  major: number | null;
  minor: number | null;
  patch: number | null;
  prerelease: (string | number)[];
}

const PARTIAL = new RegExp(`^v?(${NUMBER}|[xX*])(?:\\.(${NUMBER}|[xX*])(?:\\.(${NUMBER}|[xX*])(?:-(${PRERELEASE_ID}(?:\\.${PRERELEASE_ID})*))?(?:\\+[0-9A-Za-z.-]+)?)?)?$`);

function parsePartial(text: string): Partial {
  const match = PARTIAL.exec(text);
  if (!match) throw new VersionRangeError(`'${text}' is not a version (major.minor.patch, parts may be x or left out)`);
  const part = (value: string | undefined) => (value === undefined || /^[xX*]$/.test(value) ? null : Number(value));
  const major = part(match[1]);
  const minor = major === null ? null : part(match[2]);
  const patch = minor === null ? null : part(match[3]);
  const prerelease = patch !== null && match[4] ? (parseSemVer(`0.0.0-${match[4]}`)?.prerelease ?? []) : [];
  return { major, minor, patch, prerelease };
}

/** The comparators a partial version with an operator stands for. */
function desugar(operator: string, text: string): Comparator[] {
  const p = parsePartial(text);
  const exact = p.patch !== null ? version(p.major!, p.minor!, p.patch, p.prerelease) : null;
  const low = version(p.major ?? 0, p.minor ?? 0, p.patch ?? 0, p.prerelease);
  // The first version past what the partial names (1.2 → 1.3.0-0, 1 → 2.0.0-0).
  const nextUp = (): SemVer | null => (p.major === null ? null : p.minor === null ? floor(p.major + 1, 0, 0) : p.patch === null ? floor(p.major, p.minor + 1, 0) : null);
  switch (operator) {
    case "":
    case "=": {
      if (exact) return [{ operator: "=", version: exact }];
      const up = nextUp();
      return up ? [{ operator: ">=", version: low }, { operator: "<", version: up }] : [];
    }
    case "~": {
      if (p.major === null) return [];
      const up = p.minor === null ? floor(p.major + 1, 0, 0) : floor(p.major, p.minor + 1, 0);
      return [{ operator: ">=", version: low }, { operator: "<", version: up }];
    }
    case "^": {
      if (p.major === null) return [];
      let up: SemVer;
      if (p.major > 0 || p.minor === null) up = floor(p.major + 1, 0, 0);
      else if (p.minor > 0 || p.patch === null) up = floor(0, p.minor + 1, 0);
      else up = floor(0, 0, p.patch + 1);
      return [{ operator: ">=", version: low }, { operator: "<", version: up }];
    }
    case ">":
      if (exact) return [{ operator: ">", version: exact }];
      // `>1.2` is past all of 1.2; `>*` is nothing.
      return p.major === null ? [{ operator: "<", version: floor(0, 0, 0) }] : [{ operator: ">=", version: nextUp()! }];
    case ">=":
      return p.major === null ? [] : [{ operator: ">=", version: low }];
    case "<":
      return p.major === null ? [{ operator: "<", version: floor(0, 0, 0) }] : [{ operator: "<", version: exact ?? floor(low.major, low.minor, low.patch) }];
    case "<=":
      if (exact) return [{ operator: "<=", version: exact }];
      return p.major === null ? [] : [{ operator: "<", version: nextUp()! }];
  }
  throw new VersionRangeError(`unknown operator '${operator}'`);
}

function parseSet(text: string): ComparatorSet {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(trimmed);
  if (hyphen) {
    const from = desugar(">=", hyphen[1]!);
    // `1.2.3 - 2` ends before 3.0.0-0, `1.2.3 - 2.4.0` at 2.4.0 inclusive: what `<=` of a partial means.
    return [...from, ...desugar("<=", hyphen[2]!)];
  }
  // Operators may be written apart from their version (`>= 1.2.0`): join them first.
  const words = trimmed.replace(/(<=|>=|<|>|=|~>?|\^)\s+/g, "$1").split(/\s+/);
  return words.flatMap((word) => {
    const match = /^(<=|>=|<|>|=|~>?|\^)?(.*)$/.exec(word)!;
    const operator = match[1] === "~>" ? "~" : (match[1] ?? "");
    if (match[2] === "") throw new VersionRangeError(`'${word}' has an operator but no version`);
    return desugar(operator, match[2]!);
  });
}

/** Parses a range into its alternatives (throws VersionRangeError). */
export function parseRange(text: string): ComparatorSet[] {
  if (text.length > 256) throw new VersionRangeError("the range is longer than 256 characters");
  return text.split("||").map(parseSet);
}

function holds(comparator: Comparator, candidate: SemVer): boolean {
  const order = compareSemVer(candidate, comparator.version);
  switch (comparator.operator) {
    case "<":
      return order < 0;
    case "<=":
      return order <= 0;
    case ">":
      return order > 0;
    case ">=":
      return order >= 0;
    case "=":
      return order === 0;
  }
}

function setAllows(set: ComparatorSet, candidate: SemVer): boolean {
  if (!set.every((comparator) => holds(comparator, candidate))) return false;
  if (candidate.prerelease.length === 0) return true;
  // npm: a pre-release only satisfies a set that names a pre-release of the same major.minor.patch
  // (the `-0` floors this module adds are not such names: they mark "below every pre-release").
  return set.some(
    (comparator) =>
      comparator.version.prerelease.length > 0 &&
      !(comparator.version.prerelease.length === 1 && comparator.version.prerelease[0] === 0 && comparator.operator === "<") &&
      comparator.version.major === candidate.major &&
      comparator.version.minor === candidate.minor &&
      comparator.version.patch === candidate.patch,
  );
}

/** Whether a version satisfies a range (throws VersionRangeError when the range does not parse). */
export function satisfies(candidate: SemVer, range: string): boolean {
  return parseRange(range).some((set) => setAllows(set, candidate));
}
