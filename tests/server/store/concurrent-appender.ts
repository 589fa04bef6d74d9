/**
 * A separate OS process that appends many messages to one chat session, for the message-numbering tests:
 * started as `node --import tsx concurrent-appender.ts '<OpenStoreOptions JSON>' <session id> <appends> <start at ms>`.
 * It opens its own store (its own connection), waits for the common start time so the appenders overlap,
 * then prints the seqs it was given as JSON.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { openStore } from "../../../src/server/store/open-store.js";

const [location, sessionId, appends, startAt] = process.argv.slice(2);
const store = await openStore(JSON.parse(location!));
await sleep(Math.max(0, Number(startAt) - Date.now()));
const given: number[] = [];
for (let i = 0; i < Number(appends); i++) {
  const message = await store.appendChatMessage({ session_id: sessionId!, role: "user", content: `pid ${process.pid} message ${i}` });
  given.push(message.seq);
}
await store.close();
process.stdout.write(JSON.stringify(given));
