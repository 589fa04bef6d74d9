/**
 * Helpers of the AI tests: drafts the engine accepts and rejects, a model reply fencing a draft, a JSON
 * POST, and the named events of a server-sent events body.
 */
import type { TestService } from "./service-harness.js";

/** A pipeline the engine accepts. */
export const VALID_DRAFT = `[workflow]
name = "align-reads"
version = "0.1.0"

[[rules]]
name = "align"
input = ["reads.fq"]
output = ["aligned.sam"]
shell = "bwa mem ref.fa {input[0]} > {output[0]}"
description = "Align the reads"

[[rules]]
name = "sort"
input = ["aligned.sam"]
output = ["sorted.bam"]
shell = "samtools sort -o {output[0]} {input[0]}"
depends_on = ["align"]
`;

/** The same with an error the engine names: a dependency on a rule that does not exist. */
export const INVALID_DRAFT = VALID_DRAFT.replace('depends_on = ["align"]', 'depends_on = ["alignn"]');

export const fenced = (toml: string, words = "Here is the pipeline.") => `${words}\n\n\`\`\`toml\n${toml}\`\`\`\n`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read event fields freely
export type SseEvent = { event: string; data: any };

/** The named events of an SSE body. */
export function sseEvents(text: string): SseEvent[] {
  return text
    .split("\n\n")
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      return event && data ? { event, data: JSON.parse(data) } : undefined;
    })
    .filter((entry): entry is SseEvent => entry !== undefined);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answer fields freely
type Answer = any;

/** A JSON POST to the service. */
export const post = (service: TestService, path: string, body: unknown, init: RequestInit = {}): Promise<Omit<Response, "json"> & { json(): Promise<Answer> }> =>
  fetch(`${service.url}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), ...init });

