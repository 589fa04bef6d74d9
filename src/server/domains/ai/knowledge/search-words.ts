/**
 * Word matching shared by the knowledge lookups: a crude English stem so plain-language questions
 * ("spliced alignment", "variant calling") meet the words of summaries and synonyms ("aligner", "caller").
 */

const SUFFIXES = ["ations", "ation", "ments", "ment", "ers", "er", "ings", "ing", "ed", "ions", "ion", "es", "s"];

/** The word without one common English suffix (aligner, alignment, aligned → align). */
export function stem(word: string): string {
  for (const suffix of SUFFIXES) if (word.endsWith(suffix) && word.length - suffix.length >= 3) return word.slice(0, -suffix.length);
  return word;
}

/** Whether two words share a stem, or at least their first six letters (quantify ~ quantification). */
export function sameStem(a: string, b: string): boolean {
  if (stem(a) === stem(b)) return true;
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared++;
  return shared >= 6;
}
