/**
 * Fields every area's rows share: the store's clock, stored instants and patches without their absent fields.
 */


/** The store's notion of now, as an RFC 3339 UTC string with milliseconds. */
export type Clock = () => string;

/** The wall clock. */
export const systemClock: Clock = () => new Date().toISOString();

/**
 * A time bound of a listing filter in the stored form (UTC, milliseconds), so text comparison orders it right:
 * `09:00:00Z` would otherwise sort after `09:00:00.500Z`, and `+02:00` offsets would not compare at all.
 * Text that is not a time is passed on unchanged (the routes validate what callers send).
 */
export function storedInstant(text: string): string {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? text : new Date(ms).toISOString();
}

/** The statuses an `expectedStatus` option allows, as a list. */
export function statusList<T extends string>(expected: T | readonly T[]): readonly T[] {
  return typeof expected === "string" ? [expected] : expected;
}

/** The patch without its undefined fields, since an absent field means "keep the current value". */
export function definedFields<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}
