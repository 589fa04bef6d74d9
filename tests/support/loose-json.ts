/**
 * The type of a parsed JSON answer in HTTP tests, where assertions reach into nested fields: the
 * assertions check the shape, so a static type would only repeat them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LooseJson = any;
