/**
 * The pipelines domain's engine worker: runs `tasks` (search ranking) in a thread of the engine pool.
 */
import { workerEntry } from "../../engine-pool.js";
import { tasks } from "./tasks.js";

export default workerEntry(tasks);
