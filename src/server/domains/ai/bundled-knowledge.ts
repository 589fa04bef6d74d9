/**
 * The knowledge the service gives its AI: prompts, TOML extraction and read-only lookups, gathered into
 * the one object the harness and tools take.
 * (Interim: a minimal version until the bundled knowledge in `knowledge/` is wired in.)
 */
import type { AiKnowledge } from "./read-tools.js";

/** The service's AI knowledge. */
export const bundledKnowledge: AiKnowledge = {
  systemPrompt: (task) => `You are strand's assistant for bioinformatics pipelines (${task}). Answer with one \`\`\`toml block holding a strand pipeline: a [workflow] table with name and version, and [[rules]] with name, input, output and shell.`,
  extractToml(reply) {
    const fenced = /```toml\s*\n([\s\S]*?)```/i.exec(reply);
    if (fenced) return fenced[1]!.trim() + "\n";
    return /^\s*\[/.test(reply) ? reply.trim() + "\n" : null;
  },
  lookupPackages: () => [],
  lookupDomain: () => [],
  matchTemplates: (intent, templates) =>
    templates
      .map((template) => ({ name: template.name, score: template.name.split(/[-_\s]+/).filter((word) => word.length > 2 && intent.toLowerCase().includes(word.toLowerCase())).length }))
      .sort((a, b) => b.score - a.score),
  parseSections: () => ({}),
};
