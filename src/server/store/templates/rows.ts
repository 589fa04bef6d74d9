/** Complete templates users added rows from what callers supply, shared by both implementations. */
import { randomUUID } from "node:crypto";
import type { NewTemplate, UserTemplate } from "./contract.js";

/** A new user template. */
export function newTemplateRow(input: NewTemplate, now: string): UserTemplate {
  return {
    id: input.id ?? randomUUID(),
    name: input.name,
    description: input.description ?? null,
    tags: input.tags ?? [],
    toml_content: input.toml_content,
    created_at: now,
    owner: input.owner ?? null,
  };
}
