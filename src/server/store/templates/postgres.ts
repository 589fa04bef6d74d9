/** Templates users added in PostgreSQL. */
import { asc, eq } from "drizzle-orm";
import { containsAny, insertOrConflict, type PgDb } from "../postgres-queries.js";
import type { Clock } from "../record-fields.js";
import { notFound } from "../store-error.js";
import type { NewTemplate, UserTemplate, TemplateStore } from "./contract.js";
import { newTemplateRow } from "./rows.js";
import { templates } from "./schema-pg.js";
import { clampLimit, PIPELINE_LIMIT } from "../listing-limits.js";
import { likePatterns } from "../search-terms.js";

/** Templates users added in the PostgreSQL database. */
export class PostgresTemplateStore implements TemplateStore {
  constructor(
    private readonly db: PgDb,
    private readonly now: Clock,
  ) {}

  async createTemplate(input: NewTemplate): Promise<UserTemplate> {
    const row = newTemplateRow(input, this.now());
    await insertOrConflict(() => this.db.insert(templates).values(row), `template ${row.id} already exists`);
    return row;
  }

  async listTemplates(): Promise<UserTemplate[]> {
    return this.db.select().from(templates).orderBy(asc(templates.name), asc(templates.id));
  }

  async getTemplate(id: string): Promise<UserTemplate> {
    const [row] = await this.db.select().from(templates).where(eq(templates.id, id));
    if (row === undefined) throw notFound("template", id);
    return row;
  }

  async deleteTemplate(id: string): Promise<void> {
    const deleted = await this.db.delete(templates).where(eq(templates.id, id)).returning({ id: templates.id });
    if (deleted.length === 0) throw notFound("template", id);
  }

  async searchTemplates(text: string, query: { limit?: number } = {}): Promise<UserTemplate[]> {
    const patterns = likePatterns(text);
    if (patterns.length === 0) return [];
    return this.db
      .select()
      .from(templates)
      .where(containsAny([templates.name, templates.tags, templates.toml_content], patterns))
      .orderBy(asc(templates.name), asc(templates.id))
      .limit(clampLimit(query.limit, PIPELINE_LIMIT));
  }
}
