/**
 * The knowledge the service gives its AI — prompts generated from the engine's format reference, reply
 * readers, and the bundled lookups (packages, analysis kinds, templates) — gathered into the one object
 * the harness, tools and endpoints take.
 */
import { lookupDomain, matchTemplates } from "./knowledge/domain.js";
import { lookupPackages } from "./knowledge/packages.js";
import { extractToml, parseChanges, parseSections, systemPrompt } from "./knowledge/prompts.js";
import type { AiKnowledge } from "./read-tools.js";

/** The service's AI knowledge. */
export const bundledKnowledge: AiKnowledge = { systemPrompt, extractToml, lookupPackages, lookupDomain, matchTemplates, parseSections, parseChanges };
