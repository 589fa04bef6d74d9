/**
 * Graph edits of a pipeline text through the service (`/api/pipeline/{id}/command`, `/undo`, `/redo`): each
 * answer is the edited text with the depths of its undo and redo history (kept by the service per pipeline).
 */
import type { components } from "../../client/api-types.js";
import { api, dataOf } from "./client.js";

/** An operation of the DAG edit API and its payload. */
export type GraphCommand =
  | { operation: "add_rule"; payload: { rule: { name: string; input?: string[]; output?: string[]; shell?: string } } }
  | { operation: "remove_rule"; payload: { name: string } }
  | { operation: "connect" | "disconnect"; payload: { from: string; to: string } }
  | { operation: "rename_rule"; payload: { from: string; to: string } };

/** An edit's answer: the new text, the operation, the validation problems of the new text and the history depths. */
export type GraphCommandAnswer = components["schemas"]["DagCommandResult"];

/** Applies `command` to `text`, recorded in the history kept under `historyKey`. */
export async function sendGraphCommand(historyKey: string, text: string, command: GraphCommand): Promise<GraphCommandAnswer> {
  return dataOf(await api.POST("/api/pipeline/{id}/command", { params: { path: { id: historyKey } }, body: { toml_content: text, operation: command.operation, payload: command.payload } }));
}

/** Steps the history kept under `historyKey` back (undo) or forward (redo) from `text`. */
export async function stepGraphHistory(historyKey: string, text: string, direction: "undo" | "redo") {
  const options = { params: { path: { id: historyKey } }, body: { toml_content: text } };
  return dataOf(direction === "undo" ? await api.POST("/api/pipeline/{id}/undo", options) : await api.POST("/api/pipeline/{id}/redo", options));
}
