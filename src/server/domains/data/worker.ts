/**
 * The data helpers' engine worker: runs `tasks` in a thread of the engine pool, off the service's event loop.
 */
import { workerEntry } from "../../engine-pool.js";
import { tasks } from "./tasks.js";

export default workerEntry(tasks);
