/** The license domain as the app mounts it: the license status and its upload. */
import { LicenseCache, type LicensePlaces, type LicenseStatus } from "../../../license/license.js";
import type { DomainMount } from "../../domain-mount.js";
import { licenseRoutes } from "./routes.js";

/** The license endpoints over `places`, and the status as health probes read it (cached). */
export function licenseDomain(deps: { places: LicensePlaces }): DomainMount & { status(): Promise<LicenseStatus> } {
  const cache = new LicenseCache(deps.places);
  return { routers: [licenseRoutes(deps.places, cache)], status: () => cache.get() };
}
