/** Templates users added in SQLite. */
import { asc, eq } from "drizzle-orm";
import type { Clock } from "../record-fields.js";
import { containsAny, insertOrConflict, type SqliteDb } from "../sqlite-queries.js";
import { notFound } from "../store-error.js";
import type { NewTemplate, UserTemplate, TemplateStore } from "./contract.js";
import { newTemplateRow } from "./rows.js";
import { templates } from "./schema-sqlite.js";
import { clampLimit, PIPELINE_LIMIT } from "../listing-limits.js";
import { likePatterns } from "../search-terms.js";

/** Templates users added in the SQLite database. */
export class SqliteTemplateStore implements TemplateStore {
  constructor(
    private readonly db: SqliteDb,
    private readonly now: Clock,
  ) {}

  async createTemplate(input: NewTemplate): Promise<UserTemplate> {
    const row = newTemplateRow(input, this.now());
    insertOrConflict(() => this.db.insert(templates).values(row).run(), `template ${row.id} already exists`);
    return row;
  }

  async listTemplates(): Promise<UserTemplate[]> {
    return this.db.select().from(templates).orderBy(asc(templates.name), asc(templates.id)).all();
  }

  async getTemplate(id: string): Promise<UserTemplate> {
    const row = this.db.select().from(templates).where(eq(templates.id, id)).get();
    if (row === undefined) throw notFound("template", id);
    return row;
  }

  async deleteTemplate(id: string): Promise<void> {
    const deleted = this.db.delete(templates).where(eq(templates.id, id)).returning({ id: templates.id }).all();
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
      .limit(clampLimit(query.limit, PIPELINE_LIMIT))
      .all();
  }
}
