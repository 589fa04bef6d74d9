/**
 * Quoting text for bash, in one place: commands and data that must stay one word are always single-quoted;
 * paths and names in generated text (Dockerfiles, wrappers, chunk lists) are quoted only when they need it,
 * so common paths stay readable.
 */

/** Single-quotes a text as one shell word, always. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Quotes a path, image or name only when it holds characters the shell would act on. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : shellQuote(text);
}
