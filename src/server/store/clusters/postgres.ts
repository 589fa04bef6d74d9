/** The cluster registry in PostgreSQL. */
import { asc, eq } from "drizzle-orm";
import type { PgDb } from "../postgres-queries.js";
import type { Clock } from "../record-fields.js";
import type { ClusterInput, ClusterRecord, ClusterStore } from "./contract.js";
import { clusterRow } from "./rows.js";
import { clusters } from "./schema-pg.js";

/** The cluster registry in the PostgreSQL database. */
export class PostgresClusterStore implements ClusterStore {
  constructor(
    private readonly db: PgDb,
    private readonly now: Clock,
  ) {}

  async listClusters(): Promise<ClusterRecord[]> {
    return this.db.select().from(clusters).orderBy(asc(clusters.name), asc(clusters.id));
  }

  async getCluster(id: string): Promise<ClusterRecord | null> {
    const [row] = await this.db.select().from(clusters).where(eq(clusters.id, id));
    return row ?? null;
  }

  async putCluster(input: ClusterInput): Promise<ClusterRecord> {
    const now = this.now();
    const row = clusterRow(input, now);
    const { id: _id, created_at: _created, ...changes } = row;
    // created_at stays what it was when the id exists: the update sets every other column.
    const [saved] = await this.db.insert(clusters).values(row).onConflictDoUpdate({ target: clusters.id, set: changes }).returning();
    return saved!;
  }

  async addClusterIfAbsent(input: ClusterInput): Promise<boolean> {
    const added = await this.db.insert(clusters).values(clusterRow(input, this.now())).onConflictDoNothing().returning({ id: clusters.id });
    return added.length > 0;
  }

  async recordSeenHostKey(id: string, sha256: string): Promise<ClusterRecord | null> {
    const [row] = await this.db.update(clusters).set({ seen_host_key_sha256: sha256, updated_at: this.now() }).where(eq(clusters.id, id)).returning();
    return row ?? null;
  }

  async deleteCluster(id: string): Promise<boolean> {
    const deleted = await this.db.delete(clusters).where(eq(clusters.id, id)).returning({ id: clusters.id });
    return deleted.length > 0;
  }
}
