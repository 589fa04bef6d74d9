/**
 * What the editor says about the document it holds, from its texts: whether it has unsaved changes, and the
 * words of the save state beside the title. Pure, so the rules can be read and tested on their own.
 */

/** Where an unsaved document came from: an AI draft or a template filled from the user's data. */
export type DraftOrigin = "ai" | "data";

/** The facts the save state is told from. */
export interface DocumentFacts {
  /** The text in the editor now. */
  text: string;
  /** The text the editor opened with. */
  initialText: string;
  /** The text last saved, or undefined for a document never saved (a scratch pipeline or a draft). */
  savedText: string | undefined;
  fromDraft?: DraftOrigin;
}

/** Whether leaving would lose work: a saved document that differs from its saved text, an edited scratch text, or any draft. */
export function hasUnsavedChanges({ text, initialText, savedText, fromDraft }: DocumentFacts): boolean {
  // A draft is unsaved work from the start: leaving it asks first.
  return savedText === undefined ? fromDraft !== undefined || text !== initialText : text !== savedText;
}

/** The save state as the toolbar says it. */
export function saveStateText({ saving, saved, dirty, revision, fromDraft }: { saving: boolean; saved: boolean; dirty: boolean; revision: number | undefined; fromDraft?: DraftOrigin }): string {
  if (saving) return "Saving…";
  if (!saved) return fromDraft ? `${fromDraft === "data" ? "From your data" : "AI draft"} · not saved yet` : dirty ? "Not saved yet" : "Scratch pipeline";
  return dirty ? "● Unsaved changes" : `Saved · revision ${revision}`;
}
