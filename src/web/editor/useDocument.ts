/**
 * The pipeline document the editor holds: its text as typed, the saved text and revision it is compared
 * with, its name, whether it has unsaved changes, saving it (a new revision of a saved pipeline, or a new
 * pipeline named after its workflow for a scratch one), and the guard that asks before unsaved changes are
 * left (closing or reloading the tab, navigating inside the app).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useBlocker } from "react-router";
import { useSavePipeline, type Pipeline } from "../api/pipelines.js";
import { hasUnsavedChanges, type DraftOrigin } from "./document-state.js";

/** A saved pipeline as the editor opens it. */
export type SavedPipeline = Pick<Pipeline, "id" | "name" | "revision" | "toml_content">;

/** The document of `saved` (or of a scratch text when there is none) and what the page does after a save. */
export function usePipelineDocument({
  saved,
  initialText,
  fromDraft,
  onSaved,
  onSaveFailed,
}: {
  saved?: SavedPipeline;
  initialText: string;
  fromDraft?: DraftOrigin;
  /** After a save (a scratch pipeline's page navigates to the new pipeline: the guard lets it). */
  onSaved?: (answer: { id: string }) => void;
  onSaveFailed?: (error: Error) => void;
}) {
  const [text, setText] = useState(initialText);
  const [savedText, setSavedText] = useState(saved?.toml_content);
  const [revision, setRevision] = useState(saved?.revision);
  const [name, setName] = useState(saved?.name);
  // Set once a scratch pipeline is saved: the page then leaves it for the new pipeline, and nothing is lost.
  const leaving = useRef(false);
  const dirty = hasUnsavedChanges({ text, initialText, savedText, fromDraft });

  const mutation = useSavePipeline({
    onSuccess: (answer, { toml_content: content }) => {
      setSavedText(content);
      setRevision(answer.revision);
      setName(answer.name);
      if (!saved) leaving.current = true;
      onSaved?.(answer);
    },
    onError: (error) => onSaveFailed?.(error),
  });
  const { isPending: saving, mutate } = mutation;

  /** Saves `content`; a scratch pipeline is named `workflowName` (its `[workflow]` name, when it parses). */
  const save = useCallback(
    (content: string, workflowName: string | undefined) => {
      if (saving) return;
      mutate(saved ? { id: saved.id, revision, toml_content: content } : { name: workflowName ?? "untitled", toml_content: content });
    },
    [saving, mutate, saved, revision],
  );

  // The unsaved-changes guard: closing or reloading the tab, and navigating inside the app.
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !leaving.current && currentLocation.pathname !== nextLocation.pathname);

  return { text, setText, dirty, revision, name, saving, save, blocker };
}
