/**
 * The one test suite every Store implementation passes: the SQLite and PostgreSQL test files register it with
 * a factory that makes a new empty database for each test. Each data area's tests live in contract/<area>.ts;
 * a new area adds its file and one line to AREA_CONTRACTS.
 */
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../../src/server/store/open-store.js";
import type { Clock } from "../../../src/server/store/record-fields.js";
import type { Store } from "../../../src/server/store/store.js";
import { accountContract } from "./contract/accounts.js";
import { aiSettingsContract } from "./contract/ai-settings.js";
import { auditContract } from "./contract/audit.js";
import { chatContract } from "./contract/chat.js";
import { clusterContract } from "./contract/clusters.js";
import { instanceContract } from "./contract/instances.js";
import { testClock, type DatabaseLocation, type FreshStore, type TestClock } from "./contract/harness.js";
import { pipelineContract } from "./contract/pipelines.js";
import { runContract } from "./contract/runs.js";
import { shareContract } from "./contract/shares.js";
import { templateContract } from "./contract/templates.js";

export type { DatabaseLocation } from "./contract/harness.js";

/** Every area's contract, each run on both databases. */
const AREA_CONTRACTS: ReadonlyArray<(fresh: FreshStore) => void> = [
  pipelineContract,
  shareContract,
  templateContract,
  accountContract,
  auditContract,
  runContract,
  aiSettingsContract,
  chatContract,
  clusterContract,
  instanceContract,
];

/** Registers the store contract tests; `freshDatabase` is called once per test. */
export function registerStoreContract(kind: Store["kind"], freshDatabase: () => Promise<DatabaseLocation>): void {
  const opened: Store[] = [];

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  const fresh: FreshStore = async (clock: TestClock = testClock()) => {
    const location = await freshDatabase();
    const open = async (clockOfThis: Clock = clock.read) => {
      const store = await openStore({ ...location, clock: clockOfThis });
      opened.push(store);
      return store;
    };
    return { store: await open(), open, location, clock };
  };

  describe(`${kind} store`, () => {
    it("reports its kind and answers a ping", async () => {
      const { store } = await fresh();
      expect(store.kind).toBe(kind);
      await store.ping();
    });


    for (const areaContract of AREA_CONTRACTS) areaContract(fresh);

    describe("reopening", () => {
      it("keeps the data and applies migrations only once", async () => {
        const { store, open } = await fresh();
        const pipeline = await store.createPipeline({ name: "persisted", toml_content: "", owner: "alice" });
        const run = await store.createRun({ workflow_name: "w", owner: "alice" });
        await store.close();
        const reopened = await open();
        expect(await reopened.getPipeline(pipeline.id)).toEqual(pipeline);
        expect(await reopened.getRun(run.id)).toEqual(run);
        await reopened.close();
        const again = await open();
        expect((await again.listPipelines()).map((p) => p.id)).toEqual([pipeline.id]);
      });

      it("lets several instances open a new database at the same time", async () => {
        const location = await freshDatabase();
        const stores = await Promise.all(
          Array.from({ length: 3 }, () => openStore(location).then((store) => (opened.push(store), store))),
        );
        await stores[0]!.createPipeline({ name: "p", toml_content: "", owner: "a" });
        expect(await stores[2]!.listPipelines()).toHaveLength(1);
      });
    });
  });
}
