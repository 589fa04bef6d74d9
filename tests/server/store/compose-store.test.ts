/** The composed store: one object with every area's methods, bound to their area, and no name offered twice. */
import { describe, expect, it } from "vitest";
import { composeStore, type StoreConnection } from "../../../src/server/store/store.js";

describe("composing the store from its areas", () => {
  const connection: StoreConnection = { kind: "sqlite", ping: async () => {}, close: async () => {} };

  it("binds each area's methods to the area", async () => {
    class Counter {
      #count = 0;
      async bump(): Promise<number> {
        return ++this.#count;
      }
    }
    const store = composeStore(connection, [new Counter()]) as unknown as { bump(): Promise<number> };
    const { bump } = store;
    expect(await bump()).toBe(1);
    expect(await store.bump()).toBe(2);
  });

  it("refuses two areas offering the same method", () => {
    class One {
      async getRun(): Promise<void> {}
    }
    class Two {
      async getRun(): Promise<void> {}
    }
    expect(() => composeStore(connection, [new One(), new Two()])).toThrow(/two store areas both offer getRun/);
  });
});
