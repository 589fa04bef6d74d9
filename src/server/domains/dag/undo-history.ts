/**
 * The undo and redo stacks of graph edits, in memory, one pair per pipeline id and user. Bounded four
 * ways: steps per stack, text per history, histories in all and text in all (least recently used
 * histories are dropped first).
 */

/** One edit: the text before it and the text it produced. */
export interface EditStep {
  before: string;
  after: string;
}

/** The bounds of the histories. */
export interface HistoryLimits {
  /** Steps kept per stack (the oldest is dropped). */
  maxSteps: number;
  /** Characters of text kept per history, both stacks together (the oldest steps are dropped). */
  maxChars: number;
  /** Histories kept in all (the least recently used is dropped). */
  maxHistories: number;
  /** Characters of text kept by all histories together (the least recently used are dropped). */
  maxTotalChars: number;
}

/** 50 steps per stack, 8 Mi characters of text per history, 500 histories, 128 Mi characters in all. */
export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { maxSteps: 50, maxChars: 8 * 1024 * 1024, maxHistories: 500, maxTotalChars: 128 * 1024 * 1024 };

interface History {
  undo: EditStep[];
  redo: EditStep[];
}

const size = (step: EditStep) => step.before.length + step.after.length;

const historySize = (history: History) => [...history.undo, ...history.redo].reduce((sum, step) => sum + size(step), 0);

/** The edit histories of every pipeline and user. */
export class EditHistories {
  private readonly histories = new Map<string, History>();

  constructor(private readonly limits: HistoryLimits = DEFAULT_HISTORY_LIMITS) {}

  /** Records an edit: it goes on the undo stack, and the redo stack is cleared. */
  record(key: string, step: EditStep): void {
    const history = this.take(key);
    history.undo.push(step);
    history.redo = [];
    this.trim(history);
    this.evict(key);
  }

  /** The latest edit, or undefined. */
  lastEdit(key: string): EditStep | undefined {
    return this.histories.get(key)?.undo.at(-1);
  }

  /** The latest undone edit, or undefined. */
  lastUndone(key: string): EditStep | undefined {
    return this.histories.get(key)?.redo.at(-1);
  }

  /** Moves the latest edit to the redo stack. */
  undo(key: string): EditStep | undefined {
    const history = this.take(key);
    const step = history.undo.pop();
    if (step) history.redo.push(step);
    this.trim(history);
    return step;
  }

  /** Moves the latest undone edit back to the undo stack. */
  redo(key: string): EditStep | undefined {
    const history = this.take(key);
    const step = history.redo.pop();
    if (step) history.undo.push(step);
    this.trim(history);
    return step;
  }

  /** How many steps each stack holds. */
  depths(key: string): { undo_depth: number; redo_depth: number } {
    const history = this.histories.get(key);
    return { undo_depth: history?.undo.length ?? 0, redo_depth: history?.redo.length ?? 0 };
  }

  private take(key: string): History {
    const history = this.histories.get(key) ?? { undo: [], redo: [] };
    // Re-inserting keeps the map in least-recently-used order.
    this.histories.delete(key);
    this.histories.set(key, history);
    while (this.histories.size > this.limits.maxHistories) this.histories.delete(this.histories.keys().next().value!);
    return history;
  }

  /** Drops the least recently used histories (never `keep`) while all of them hold too much text. */
  private evict(keep: string): void {
    let total = 0;
    for (const history of this.histories.values()) total += historySize(history);
    for (const [key, history] of this.histories) {
      if (total <= this.limits.maxTotalChars) return;
      if (key === keep) continue;
      total -= historySize(history);
      this.histories.delete(key);
    }
  }

  private trim(history: History): void {
    for (const stack of [history.undo, history.redo]) if (stack.length > this.limits.maxSteps) stack.splice(0, stack.length - this.limits.maxSteps);
    let chars = historySize(history);
    // The oldest edits go first (the bottom of the undo stack, then the bottom of the redo stack).
    while (chars > this.limits.maxChars && history.undo.length + history.redo.length > 1) {
      const stack = history.undo.length > 0 ? history.undo : history.redo;
      chars -= size(stack.shift()!);
    }
  }
}
