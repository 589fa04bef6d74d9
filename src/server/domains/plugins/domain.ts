/** The plugins domain as the app mounts it: plugin manifests and their signatures. */
import type { DomainMount } from "../../domain-mount.js";
import { pluginRoutes } from "./routes.js";

/** Manifest checks for strand `version`, trusting the keys `trustedKeys` lists (SERVICE_PLUGIN_TRUSTED_KEYS). */
export function pluginsDomain(deps: { version: string; trustedKeys: string }): DomainMount {
  return { routers: [pluginRoutes(deps)] };
}
