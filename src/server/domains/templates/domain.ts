/** The templates domain as the app mounts it: built-in and user templates. */
import type { DomainMount } from "../../domain-mount.js";
import type { TemplateStore } from "../../store/templates/contract.js";
import { templateRoutes } from "./routes.js";

/** The templates, the built-in ones and those users added to `store`. */
export function templatesDomain(deps: { store: TemplateStore }): DomainMount {
  return { routers: [templateRoutes(deps.store)] };
}
