/** The cluster registry in SQLite. */
import { asc, eq } from "drizzle-orm";
import type { Clock } from "../record-fields.js";
import type { SqliteDb } from "../sqlite-queries.js";
import type { ClusterInput, ClusterRecord, ClusterStore } from "./contract.js";
import { clusterRow } from "./rows.js";
import { clusters } from "./schema-sqlite.js";

/** The cluster registry in the SQLite database. */
export class SqliteClusterStore implements ClusterStore {
  constructor(
    private readonly db: SqliteDb,
    private readonly now: Clock,
  ) {}

  async listClusters(): Promise<ClusterRecord[]> {
    return this.db.select().from(clusters).orderBy(asc(clusters.name), asc(clusters.id)).all();
  }

  async getCluster(id: string): Promise<ClusterRecord | null> {
    return this.db.select().from(clusters).where(eq(clusters.id, id)).get() ?? null;
  }

  async putCluster(input: ClusterInput): Promise<ClusterRecord> {
    return this.db.transaction((tx) => {
      const existing = tx.select({ created_at: clusters.created_at }).from(clusters).where(eq(clusters.id, input.id)).get();
      const row = clusterRow(input, this.now(), existing?.created_at);
      const { id: _id, created_at: _created, ...changes } = row;
      tx.insert(clusters).values(row).onConflictDoUpdate({ target: clusters.id, set: changes }).run();
      return row;
    });
  }

  async addClusterIfAbsent(input: ClusterInput): Promise<boolean> {
    const result = this.db.insert(clusters).values(clusterRow(input, this.now())).onConflictDoNothing().run();
    return result.changes > 0;
  }

  async recordSeenHostKey(id: string, sha256: string): Promise<ClusterRecord | null> {
    this.db.update(clusters).set({ seen_host_key_sha256: sha256, updated_at: this.now() }).where(eq(clusters.id, id)).run();
    return this.getCluster(id);
  }

  async deleteCluster(id: string): Promise<boolean> {
    return this.db.delete(clusters).where(eq(clusters.id, id)).run().changes > 0;
  }
}
