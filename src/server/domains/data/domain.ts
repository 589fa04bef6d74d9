/** The data domain as the app mounts it: data folders, analysis, sample sheets, reference genomes and uploads. */
import type { DomainMount } from "../../domain-mount.js";
import { DataPlaces } from "./data-roots.js";
import { dataRoutes } from "./routes.js";
import { DataService } from "./service.js";

/** What the data domain needs. */
export interface DataDependencies {
  /** `SERVICE_DATA_DIR`: users' own folders live under `users/<id>/files`. */
  dataDir: string;
  /** `SERVICE_DATA_ROOTS`: folders every user may read. */
  dataRoots: string[];
  /** Personal mode without data roots also reads the home folder. */
  personal: boolean;
  /** That home folder (default: the process's). */
  home?: string;
  /** `SERVICE_REFERENCE_ROOTS`: folders searched for reference genomes. */
  referenceRoots: string[];
  /** The largest file an upload stores, in bytes. */
  uploadLimitBytes: number;
}

/** The data helpers over the folders users may read. */
export function dataDomain(deps: DataDependencies): DomainMount {
  const places = new DataPlaces({ dataDir: deps.dataDir, dataRoots: deps.dataRoots, personal: deps.personal, home: deps.home });
  return { routers: [dataRoutes(new DataService(places, deps.referenceRoots), { uploadLimitBytes: deps.uploadLimitBytes })] };
}
