/**
 * A separate OS process that updates one pipeline many times, for the lost-update tests: started as
 * `node --import tsx concurrent-writer.ts '<OpenStoreOptions JSON>' <pipeline id> <updates> <start at ms>`.
 * It opens its own store (its own connection), waits for the common start time so the writers overlap,
 * then prints the revisions it wrote as JSON.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { openStore } from "../../../src/server/store/open-store.js";

const [location, pipelineId, updates, startAt] = process.argv.slice(2);
const store = await openStore(JSON.parse(location!));
await sleep(Math.max(0, Number(startAt) - Date.now()));
const written: number[] = [];
for (let i = 0; i < Number(updates); i++) {
  const updated = await store.updatePipeline(pipelineId!, { name: `pid ${process.pid} update ${i}` });
  written.push(updated.revision);
}
await store.close();
process.stdout.write(JSON.stringify(written));
