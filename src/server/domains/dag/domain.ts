/** The dag domain as the app mounts it: graph edits of saved pipelines with undo and redo. */
import type { DomainMount } from "../../domain-mount.js";
import type { PipelineStore } from "../../store/pipelines/contract.js";
import { graphEditRoutes } from "./routes.js";

/** Graph edits of the pipelines in `store`. */
export function dagDomain(deps: { store: PipelineStore }): DomainMount {
  return { routers: [graphEditRoutes(deps.store)] };
}
