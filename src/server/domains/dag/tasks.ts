/**
 * The DAG domain's engine task: a graph edit, run in an engine worker because it reads the whole text
 * (the result is validated by the workflow domain's own task).
 */
import { parse as parseToml, TomlError } from "smol-toml";
import { applyGraphEdit, PipelineEditError } from "../../../engine/format/pipeline-edits.js";
import { ServiceError } from "../../errors.js";

/** The edited text; DAG_EDIT_ERROR when the edit cannot be made. */
function edit(input: { text: string; operation: string; payload: unknown; source?: string }) {
  let edited: string;
  try {
    edited = applyGraphEdit(input.text, input.operation, input.payload);
  } catch (error) {
    if (error instanceof PipelineEditError) throw editError(error.message, error.suggestion, input.source);
    throw error;
  }
  try {
    parseToml(edited);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // The edit is refused rather than handing back text that does not read (a table written in a way the edit cannot extend).
    throw editError(`the ${input.operation} edit would leave text that does not parse (line ${error.line}, column ${error.column})`, "edit this part of the text by hand", input.source);
  }
  return edited;
}

function editError(message: string, suggestion: string | undefined, source: string | undefined): ServiceError {
  return new ServiceError("DAG_EDIT_ERROR", source ? `${source}: ${message}` : message, suggestion ? { suggestion } : {});
}

/** The tasks by name, as the worker runs them. */
export const tasks = { edit };

/** Their types, for `engineTasks`. */
export type DagTasks = typeof tasks;
