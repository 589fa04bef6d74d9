/**
 * The known name closest to a misspelt one, for "did you mean" hints: unknown keys (lint), rule names
 * (`-t`), edits, options, webhook and plugin fields. Shared by every stage, so it sits below them all.
 */

/** Levenshtein distance, with an early exit above `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      current.push(value);
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/** The known key closest to `key`, when it is close enough to be a likely typo. */
export function nearestKey(key: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  const limit = Math.max(2, Math.floor(key.length / 3));
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate, limit);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : null;
}
