/**
 * Reading a remote share's landing document, whichever product served it, into what an import keeps.
 *
 * A strand server answers `GET /api/share/<token>` with `{token, expires_at, pipeline: {id, name, version,
 * description, tags, rules_count, updated_at}, toml_content}`. An oxo-flow server (the predecessor) answers
 * the same address with `{pipeline: {name, version, rules_count, visibility}, dag, toml_content, owner, created_at, expires_at, recent_run}`. Both carry the pipeline text; the rest maps onto
 * the imported pipeline's name, version and description. The document is untrusted: fields are read only
 * when they have the expected type, and every kept string is bounded.
 */
import { z } from "zod";
import { ServiceError } from "../../errors.js";
import type { ShareServer } from "./import-url.js";

/** What an import keeps from a share's landing document. */
export interface RemoteShare {
  toml_content: string;
  /** The shared pipeline's name, for "<name> (imported)". */
  name: string | undefined;
  /** Kept when the pipeline text states no version of its own. */
  version: string | null;
  /** Kept when the pipeline text states no description of its own. */
  description: string | null;
}

const MAX_NAME = 180;
const MAX_FIELD = 200;

/** A bounded single-line string, or null for anything else. */
const text = (max: number) =>
  z
    .string()
    .transform((value) => singleLine(value).slice(0, max))
    .nullish()
    .catch(null);

/** `value` with every run of control characters (line breaks included) turned into one space, trimmed. */
function singleLine(value: string): string {
  let result = "";
  let inControl = false;
  for (const char of value) {
    const code = char.charCodeAt(0);
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f);
    if (control && !inControl) result += " ";
    else if (!control) result += char;
    inControl = control;
  }
  return result.trim();
}

/** The parts of a strand landing document an import reads. */
const StrandLanding = z.object({
  toml_content: z.string(),
  pipeline: z.object({ name: text(MAX_NAME), version: text(MAX_FIELD), description: text(4 * MAX_FIELD) }).catch({ name: null, version: null, description: null }),
});

/** The parts of an oxo-flow landing document an import reads (its DAG order and last run are recomputed or not kept). */
const OxoFlowLanding = z.object({
  toml_content: z.string(),
  pipeline: z.object({ name: text(MAX_NAME), version: text(MAX_FIELD) }),
  owner: text(MAX_FIELD),
  created_at: text(40),
});

/** Reads the landing document `body` fetched from `shownUrl`; 400 INVALID_URL when it is not one. */
export function readShareLanding(server: ShareServer, body: string, shownUrl: string): RemoteShare {
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    throw notALanding(server, shownUrl);
  }
  if (server === "oxo-flow") {
    const parsed = OxoFlowLanding.safeParse(document);
    if (!parsed.success) throw notALanding(server, shownUrl);
    const { pipeline, owner, created_at } = parsed.data;
    return {
      toml_content: parsed.data.toml_content,
      name: pipeline.name || undefined,
      version: pipeline.version || null,
      description: provenance(owner, created_at),
    };
  }
  const parsed = StrandLanding.safeParse(document);
  if (!parsed.success) throw notALanding(server, shownUrl);
  const { pipeline } = parsed.data;
  return { toml_content: parsed.data.toml_content, name: pipeline.name || undefined, version: pipeline.version || null, description: pipeline.description || null };
}

/** "Imported from an oxo-flow share by <owner>, shared on <date>": who and when, which the text does not say. */
function provenance(owner: string | null | undefined, createdAt: string | null | undefined): string {
  const date = createdAt && /^\d{4}-\d{2}-\d{2}/.test(createdAt) ? createdAt.slice(0, 10) : undefined;
  return `Imported from an oxo-flow share${owner ? ` by ${owner}` : ""}${date ? `, shared on ${date}` : ""}`;
}

function notALanding(server: ShareServer, shownUrl: string): ServiceError {
  const product = server === "oxo-flow" ? "an oxo-flow" : "a strand";
  return new ServiceError("INVALID_URL", `${shownUrl} did not answer with ${product} share document`, {
    suggestion: server === "oxo-flow" ? "check that the link is an oxo-flow share link (oxo+https://<host>/share/<token>)" : "check that the link is a strand share link and has not expired",
  });
}
