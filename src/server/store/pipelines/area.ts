/** Saved pipelines and their revisions: the store area, on either database. */
import { storeArea } from "../store-area.js";
import type { PipelineStore } from "./contract.js";
import { PostgresPipelineStore } from "./postgres.js";
import { SqlitePipelineStore } from "./sqlite.js";

/** Saved pipelines and their revisions. */
export const pipelineArea = storeArea<PipelineStore>({
  name: "pipelines",
  sqlite: (db, now) => new SqlitePipelineStore(db, now),
  postgres: (db, now) => new PostgresPipelineStore(db, now),
});
