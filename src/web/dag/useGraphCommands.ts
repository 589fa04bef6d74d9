/**
 * Graph edits through the service (api/graph-edits.ts): each answer's text replaces the editor's, and the
 * answer's history depths say whether undo and redo can go on.
 */
import { useMutation } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { sendGraphCommand, stepGraphHistory, type GraphCommand } from "../api/graph-edits.js";

/** A validation problem of an edited text, as the service reported it. */
export interface EditProblem {
  code: string;
  message: string;
  suggestion: string | null;
}

/** Where graph edits read and write the text. */
export interface GraphTextAccess {
  /** The history key: the saved pipeline's id, or a scratch key kept for the page's life. */
  pipelineId: string;
  /** The editor's current text. */
  text: () => string;
  /** Puts an answer's text into the editor (as an editor transaction, so the editor's own undo sees it). */
  replaceText: (next: string) => void;
}

interface Outcome {
  /** The rule to select afterwards, if any. */
  select?: string;
}

/** Runs graph commands, undo and redo against the service and writes each answer into the editor. */
export function useGraphCommands(access: GraphTextAccess) {
  const [depths, setDepths] = useState({ undo: 0, redo: 0 });
  // The text the last answer gave: when the editor's text is something else (typed since), the service's
  // history no longer matches and undo or redo would be refused as a conflict.
  const [answered, setAnswered] = useState<string | undefined>();
  const [problems, setProblems] = useState<EditProblem[]>([]);
  const [lastOperation, setLastOperation] = useState<string | undefined>();

  const settle = useCallback(
    (text: string, undo: number, redo: number) => {
      access.replaceText(text);
      setAnswered(text);
      setDepths({ undo, redo });
    },
    [access],
  );

  const command = useMutation({
    mutationFn: ({ command }: { command: GraphCommand } & Outcome) => sendGraphCommand(access.pipelineId, access.text(), command),
    onSuccess: (answer) => {
      settle(answer.toml_content, answer.undo_depth, answer.redo_depth);
      setProblems(answer.validation_errors);
      setLastOperation(answer.operation);
    },
  });

  const history = useMutation({
    mutationFn: async (direction: "undo" | "redo") => ({ direction, answer: await stepGraphHistory(access.pipelineId, access.text(), direction) }),
    onSuccess: ({ direction, answer }) => {
      settle(answer.toml_content, answer.undo_depth, answer.redo_depth);
      setProblems([]);
      setLastOperation(direction);
    },
  });

  const pending = command.isPending || history.isPending;
  const inStep = answered !== undefined && access.text() === answered;
  const error = (command.error ?? history.error) as Error | null;

  return {
    /** Sends one edit; resolves with the rule to select afterwards (undefined when it failed). */
    run: useCallback(
      async (next: GraphCommand, outcome: Outcome = {}) => {
        history.reset();
        try {
          await command.mutateAsync({ command: next, ...outcome });
          return outcome;
        } catch {
          return undefined;
        }
      },
      [command, history],
    ),
    undo: useCallback(() => {
      command.reset();
      history.mutate("undo");
    }, [command, history]),
    redo: useCallback(() => {
      command.reset();
      history.mutate("redo");
    }, [command, history]),
    canUndo: !pending && inStep && depths.undo > 0,
    canRedo: !pending && inStep && depths.redo > 0,
    /** True when the text was typed in since the last graph edit (the service's history is for the old text). */
    textMovedOn: answered !== undefined && !inStep,
    depths,
    pending,
    error,
    problems,
    lastOperation,
    dismissError: useCallback(() => {
      command.reset();
      history.reset();
    }, [command, history]),
  };
}
