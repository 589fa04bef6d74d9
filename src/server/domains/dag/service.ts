/**
 * Graph edits of a pipeline's text with undo and redo, free of HTTP. An id that names a saved pipeline
 * needs write permission on it (another user's private one is NOT_FOUND, a readable one 403); any other id
 * is a scratch key of the unsaved editor. Histories are per id and caller either way, so two users never
 * share one. Nothing is saved here: the client saves the text it gets back.
 */
import type { Caller } from "../../caller.js";
import { engineTasks } from "../../engine-pool.js";
import { ServiceError } from "../../errors.js";
import type { PipelineStore } from "../../store/pipelines/contract.js";
import { isStoreError } from "../../store/store-error.js";
import { writable } from "../pipelines/service.js";
import { validateText } from "../workflow/service.js";
import type { DagTasks } from "./tasks.js";
import { EditHistories, type EditStep, type HistoryLimits } from "./undo-history.js";

const work = engineTasks<DagTasks>(new URL("./worker.js", import.meta.url));

/** What a graph edit asks for. */
export interface CommandInput {
  toml_content: string;
  source?: string;
  operation: string;
  payload?: Record<string, unknown>;
}

/** Graph edits and their histories. */
export class GraphEditing {
  private readonly histories: EditHistories;

  constructor(
    private readonly store: PipelineStore,
    limits?: HistoryLimits,
  ) {
    this.histories = new EditHistories(limits);
  }

  /** Applies one edit and records it (an edit that is refused leaves the history as it was). */
  async command(caller: Caller, id: string, input: CommandInput) {
    const { user, pipeline } = await this.historyKey(caller, id);
    const edited = await work("edit", { text: input.toml_content, operation: input.operation, payload: input.payload ?? {}, source: input.source }, "editing the pipeline's graph");
    const validation = await validateText(edited);
    if (edited !== input.toml_content) this.histories.record(user, pipeline, { before: input.toml_content, after: edited });
    return {
      success: validation.valid,
      toml_content: edited,
      validation_errors: validation.errors.map(({ code, message, suggestion }) => ({ code, message, suggestion })),
      operation: input.operation,
      ...this.histories.depths(user, pipeline),
    };
  }

  /** The text before the latest edit; the client's text must be what that edit produced. */
  async undo(caller: Caller, id: string, text: string) {
    const { user, pipeline } = await this.historyKey(caller, id);
    const step = this.histories.lastEdit(user, pipeline);
    if (!step) throw new ServiceError("NO_UNDO", `no edit of ${id} to undo`, { suggestion: "undo takes back edits made with POST /api/pipeline/{id}/command by you, in this service's lifetime" });
    expectText(text, step.after, "undo");
    this.histories.undo(user, pipeline);
    return { toml_content: step.before, ...this.histories.depths(user, pipeline) };
  }

  /** The text after the latest undone edit; the client's text must be what that undo produced. */
  async redo(caller: Caller, id: string, text: string) {
    const { user, pipeline } = await this.historyKey(caller, id);
    const step = this.histories.lastUndone(user, pipeline);
    if (!step) throw new ServiceError("NO_REDO", `no undone edit of ${id} to redo`, { suggestion: "redo applies again what undo took back; a new edit clears it" });
    expectText(text, step.before, "redo");
    this.histories.redo(user, pipeline);
    return { toml_content: step.after, ...this.histories.depths(user, pipeline) };
  }

  /** The history of this id and caller, after checking the caller may change a saved pipeline of that id. */
  private async historyKey(caller: Caller, id: string): Promise<{ user: string; pipeline: string }> {
    const saved = await this.store.getPipeline(id).then(
      () => true,
      (error: unknown) => {
        if (isStoreError(error, "NOT_FOUND")) return false;
        throw error;
      },
    );
    if (saved) await writable(this.store, caller, id);
    return { user: caller.id, pipeline: id };
  }
}

/** Undo and redo refuse to replace text the client changed since (it would lose that change). */
function expectText(text: string, expected: string, what: "undo" | "redo"): void {
  if (text === expected) return;
  const step: keyof EditStep = what === "undo" ? "after" : "before";
  throw new ServiceError("CONFLICT", `the text sent is not the text the last ${what === "undo" ? "edit" : "undo"} produced, so ${what} would throw away a change made since`, {
    suggestion: `send the text exactly as the last command, undo or redo returned it (the ${step} text of that step), or keep editing: a new edit starts a new history`,
  });
}
