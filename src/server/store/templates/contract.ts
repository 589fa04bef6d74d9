/**
 * Templates users added: the records and the store contract of this area. Field names follow the API's JSON
 * (snake_case); timestamps are RFC 3339 UTC strings in both implementations.
 */

/** A pipeline template a user added (the built-in ones live with the templates domain, not here). */
export interface UserTemplate {
  id: string;
  name: string;
  description: string | null;
  tags: string[];
  toml_content: string;
  created_at: string;
  /** The user who added it (only they and administrators may delete it); null for templates older than sign-in. */
  owner: string | null;
}

/** What a caller supplies to add a template. */
export interface NewTemplate {
  id?: string;
  name: string;
  description?: string | null;
  tags?: string[];
  toml_content: string;
  owner?: string | null;
}

/** Templates users added: what the services may read and change. */
export interface TemplateStore {
  /** Adds a template. CONFLICT if the id is taken. */
  createTemplate(input: NewTemplate): Promise<UserTemplate>;

  /** Templates by name. */
  listTemplates(): Promise<UserTemplate[]>;

  /** The template with this id. NOT_FOUND if there is none. */
  getTemplate(id: string): Promise<UserTemplate>;

  /** Deletes a template. NOT_FOUND if there is none. */
  deleteTemplate(id: string): Promise<void>;
  /** Templates matching any word of `text` in name, tags or content, unranked, by name; at most `limit` (default 50, clamped to 1..100). */
  searchTemplates(text: string, query?: { limit?: number }): Promise<UserTemplate[]>;
}

/** The reads of templates, for code that must never write them (the AI's capabilities). */
export type TemplateReads = Pick<TemplateStore, "listTemplates" | "getTemplate" | "searchTemplates">;
