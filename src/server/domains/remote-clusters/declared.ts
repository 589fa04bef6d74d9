/**
 * Clusters declared in a configuration file (`SERVICE_CLUSTERS_FILE`), added to the registry at start when
 * their id is free — so an administrator's later changes in the registry are never overwritten, as with the
 * predecessor's `[[clusters]]`. Each entry has the fields of `POST /api/clusters`, checked the same way; a
 * key is named by `key_path` only (key text does not belong in a configuration file). A bad entry stops the
 * start with the file, the entry and the field.
 */
import { readFile } from "node:fs/promises";
import { parse } from "smol-toml";
import { clusterChange, type ClusterRegistry } from "./service.js";

/** What the start reports: the ids added and the ids already in the registry. */
export interface DeclaredClusters {
  added: string[];
  kept: string[];
}

/** Reads the file and adds its clusters whose ids are free. */
export async function declareClusters(registry: ClusterRegistry, file: string): Promise<DeclaredClusters> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new Error(`SERVICE_CLUSTERS_FILE ${file}: cannot read it (${error.code ?? error.message})`);
  });
  let document: Record<string, unknown>;
  try {
    document = parse(text);
  } catch (error) {
    throw new Error(`SERVICE_CLUSTERS_FILE ${file}: not TOML: ${(error as Error).message.split("\n")[0]}`);
  }
  const unknown = Object.keys(document).filter((key) => key !== "clusters");
  if (unknown.length > 0) throw new Error(`SERVICE_CLUSTERS_FILE ${file}: unknown table ${unknown.join(", ")}; the file holds [[clusters]] entries only`);
  const entries = document.clusters ?? [];
  if (!Array.isArray(entries)) throw new Error(`SERVICE_CLUSTERS_FILE ${file}: clusters must be an array of tables ([[clusters]])`);
  const changes = entries.map((entry: unknown, index) => {
    const where = `SERVICE_CLUSTERS_FILE ${file}: [[clusters]] #${index + 1}`;
    if (typeof entry === "object" && entry !== null && "private_key" in entry) throw new Error(`${where}: private_key is not read from a file; name the key file with key_path`);
    try {
      return clusterChange(entry);
    } catch (error) {
      throw new Error(`${where}: ${(error as Error).message}`);
    }
  });
  const result: DeclaredClusters = { added: [], kept: [] };
  for (const change of changes) (await registry.declare(change) ? result.added : result.kept).push(change.id);
  return result;
}
