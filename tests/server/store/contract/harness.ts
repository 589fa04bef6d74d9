/** What every area's contract tests share: a fresh store on a new database, a test clock, error checks. */
import { join } from "node:path";
import { expect } from "vitest";
import type { OpenStoreOptions } from "../../../../src/server/store/open-store.js";
import type { Clock } from "../../../../src/server/store/record-fields.js";
import type { Store } from "../../../../src/server/store/store.js";
import { isStoreError, type StoreErrorCode } from "../../../../src/server/store/store-error.js";

/** Where a new, empty database lives (a data directory or a PostgreSQL URL). */
export type DatabaseLocation = Omit<OpenStoreOptions, "clock">;

/** A clock the tests move: one millisecond per reading, plus explicit jumps. */
export interface TestClock {
  read: Clock;
  advance(ms: number): void;
}

/** A clock starting at `start` that ticks one millisecond per reading. */
export function testClock(start = "2026-11-21T09:00:00.000Z"): TestClock {
  let now = Date.parse(start);
  return {
    read: () => new Date(now++).toISOString(),
    advance: (ms) => {
      now += ms;
    },
  };
}

/** A store on a new database, plus a way to open more stores on the same database. */
export type FreshStore = (clock?: TestClock) => Promise<{
  store: Store;
  open: (clock?: Clock) => Promise<Store>;
  location: DatabaseLocation;
  clock: TestClock;
}>;

/** A script that updates one pipeline many times from its own process (the concurrent-writer test). */
export const WRITER = join(import.meta.dirname, "..", "concurrent-writer.ts");

/** A script that appends chat messages from its own process (the concurrent-appender test). */
export const APPENDER = join(import.meta.dirname, "..", "concurrent-appender.ts");

/** Expects `promise` to fail with a StoreError of `code`. */
export async function expectStoreError(promise: Promise<unknown>, code: StoreErrorCode): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isStoreError(error, code), `expected StoreError ${code}, got ${String(error)}`).toBe(true);
}

/** A minimal pipeline text named `name`. */
export const TOML = (name: string) => `[workflow]\nname = "${name}"\n`;
