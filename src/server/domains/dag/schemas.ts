/**
 * Request and response types of the DAG edit endpoints (they generate the OpenAPI document).
 */
import { z } from "@hono/zod-openapi";
import { GRAPH_OPERATIONS } from "../../../engine/format/pipeline-edits.js";

const toml = z.string().openapi({ description: "pipeline TOML text" });

/** `POST /api/pipeline/{id}/command`: the text, the operation and its payload. */
export const CommandBody = z
  .object({
    toml_content: toml.openapi({ description: "the text to edit (the client's current text)" }),
    source: z.string().max(256).optional().openapi({ description: "what the text is called in messages (a file name); informational" }),
    operation: z.string().openapi({ description: `one of ${GRAPH_OPERATIONS.join(", ")}`, example: "connect" }),
    payload: z.record(z.string(), z.unknown()).optional().openapi({
      description:
        "the operation's fields: add_rule {rule: {name, …}}; remove_rule {name}; connect and disconnect {from, to}; update_rule {name, patch}; update_workflow {patch}; rename_rule {from, to}. " +
        "A patch is an RFC 7396 merge patch: null deletes a key, a table merges into the table it names, any other value replaces.",
      example: { from: "trim", to: "align" },
    }),
  })
  .openapi("DagCommandBody");

/** `/undo` and `/redo`: the client's current text. */
export const HistoryBody = z.object({ toml_content: toml.openapi({ description: "the client's current text (must be what the last edit, undo or redo answered)" }) }).openapi("DagHistoryBody");

const EditFinding = z.object({ code: z.string(), message: z.string(), suggestion: z.string().nullable() }).openapi("DagEditFinding");

const depths = {
  undo_depth: z.number().int().openapi({ description: "edits that /undo can take back now" }),
  redo_depth: z.number().int().openapi({ description: "undone edits that /redo can apply again now" }),
};

/** The edited text with its validation and the history depths. */
export const CommandResult = z
  .object({
    success: z.boolean().openapi({ description: "whether the edited text validates (it is returned either way)" }),
    toml_content: z.string().openapi({ description: "the edited text; comments and layout of untouched parts kept" }),
    validation_errors: z.array(EditFinding).openapi({ description: "validation errors of the edited text" }),
    operation: z.string(),
    ...depths,
  })
  .openapi("DagCommandResult");

/** The text undo or redo gives back, with the history depths. */
export const HistoryResult = z.object({ toml_content: z.string(), ...depths }).openapi("DagHistoryResult");
