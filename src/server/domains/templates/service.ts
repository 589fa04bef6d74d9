/**
 * Templates, free of HTTP: the built-in ones shipped with strand (templates/ at the package root, also
 * `strand template`) and those users add, in one list. Built-in templates have stable UUIDs derived from
 * their slug, so links to them survive restarts and upgrades; they are part of the program and cannot be
 * deleted. A template must parse as a pipeline (`[workflow].name`), like a saved pipeline.
 */
import { createHash } from "node:crypto";
import { getTemplate as builtInBySlug, listTemplates as builtInSummaries } from "../../../engine/tools/templates.js";
import type { Caller } from "../../caller.js";
import { ServiceError } from "../../errors.js";
import type { TemplateReads, TemplateStore, UserTemplate } from "../../store/templates/contract.js";
import { isStoreError } from "../../store/store-error.js";
import { describeText, type Validation } from "../workflow/service.js";

/** A template as the API shows it. */
export interface ApiTemplate {
  id: string;
  /** The built-in template's short name (`hello-world`, what `strand template` takes); null for user templates. */
  slug: string | null;
  name: string;
  title: string;
  description: string;
  tags: string[];
  features: string[];
  /** Runs on a bare machine with only bash and coreutils. */
  runnable: boolean;
  builtin: boolean;
  toml_content: string;
  created_at: string | null;
  /** The id of the user who added it; null for built-in templates and those added before sign-in. */
  owner: string | null;
}

/** A name-based UUID (version 5 layout over SHA-1) for a built-in template's slug. */
export function builtInId(slug: string): string {
  const bytes = createHash("sha1").update(`strand-template:${slug}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

let builtIns: ApiTemplate[] | undefined;

/** The built-in templates with their text, in catalogue order (read once per process). */
export function builtInTemplates(): ApiTemplate[] {
  builtIns ??= builtInSummaries().map((entry) => {
    const full = builtInBySlug(entry.id)!;
    return {
      id: builtInId(entry.id),
      slug: entry.id,
      name: entry.name,
      title: entry.title,
      description: entry.description,
      tags: entry.tags,
      features: entry.features,
      runnable: entry.runnable,
      builtin: true,
      toml_content: full.toml_content,
      created_at: null,
      owner: null,
    };
  });
  return builtIns;
}

/** A stored template in the API's shape. */
export function fromStored(template: UserTemplate): ApiTemplate {
  return {
    id: template.id,
    slug: null,
    name: template.name,
    title: template.name,
    description: template.description ?? "",
    tags: template.tags,
    features: [],
    runnable: false,
    builtin: false,
    toml_content: template.toml_content,
    created_at: template.created_at,
    owner: template.owner,
  };
}

/** Every template: the built-in ones first, then user templates by name. */
export async function allTemplates(store: TemplateReads): Promise<ApiTemplate[]> {
  return [...builtInTemplates(), ...(await store.listTemplates()).map(fromStored)];
}

function findBuiltIn(key: string): ApiTemplate | undefined {
  const wanted = key.trim().toLowerCase();
  return builtInTemplates().find((template) => template.id === wanted || template.slug === wanted || template.name.toLowerCase() === wanted);
}

/** One template by id, by a built-in slug, or by exact name. */
export async function oneTemplate(store: TemplateReads, key: string): Promise<ApiTemplate> {
  const builtIn = findBuiltIn(key);
  if (builtIn) return builtIn;
  try {
    return fromStored(await store.getTemplate(key));
  } catch (error) {
    if (!isStoreError(error, "NOT_FOUND")) throw error;
  }
  const byName = (await store.listTemplates()).find((template) => template.name === key);
  if (byName) return fromStored(byName);
  throw new ServiceError("NOT_FOUND", `no template ${key}`, { suggestion: "GET /api/templates lists every template" });
}

export interface NewTemplateInput {
  name: string;
  toml_content: string;
  description?: string;
  tags?: string[];
}

/** Adds a user template owned by `owner` (a user id); its name must be new among built-in and user templates. */
export async function addTemplate(store: TemplateStore, input: NewTemplateInput, owner: string): Promise<{ template: ApiTemplate; validation: Validation }> {
  const { facts, validation } = await describeText(input.toml_content);
  const name = input.name.trim();
  const clash = findBuiltIn(name) ?? (await store.listTemplates()).find((template) => template.name.toLowerCase() === name.toLowerCase());
  if (clash) throw new ServiceError("CONFLICT", `a template named ${name} already exists`, { suggestion: "choose another name" });
  const stored = await store.createTemplate({
    name,
    description: input.description ?? facts.description,
    tags: [...new Set((input.tags ?? []).map((tag) => tag.trim()).filter(Boolean))],
    toml_content: input.toml_content,
    owner,
  });
  return { template: fromStored(stored), validation };
}

/**
 * Deletes a user template, for its owner or an administrator (everyone reads every template, so another
 * user's is 403, not 404); one added before sign-in has no owner and only administrators delete it.
 * Built-in ones are refused.
 */
export async function removeTemplate(store: TemplateStore, caller: Caller, key: string): Promise<string> {
  const builtIn = findBuiltIn(key);
  if (builtIn) throw new ServiceError("ACCESS_DENIED", `${builtIn.slug} is a built-in template and cannot be deleted`, { suggestion: "built-in templates come with strand; add your own with POST /api/templates" });
  const template = await oneTemplate(store, key);
  if (!caller.admin && template.owner !== caller.id) {
    throw new ServiceError("ACCESS_DENIED", `template ${template.name} belongs to another user; only its owner or an administrator can delete it`, { suggestion: "add your own copy with POST /api/templates under another name" });
  }
  await store.deleteTemplate(template.id);
  return template.id;
}
