/**
 * The undo and redo stacks of graph edits, in memory, one pair per user and pipeline id. Each user has their
 * own share: steps per stack and text per history, then histories and text per user (that user's least
 * recently used histories are dropped first), so one user's many edits never drop another user's undo step.
 * A ceiling over all users bounds the memory of the whole service; past it, the user holding the most text
 * loses their least recently used history first — never a quiet user's — and never the history just edited.
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
  /** Histories kept per user (that user's least recently used is dropped). */
  maxHistoriesPerUser: number;
  /** Characters of text kept by one user's histories together (that user's least recently used are dropped). */
  maxCharsPerUser: number;
  /** Characters of text kept by all histories together (the largest user's least recently used are dropped). */
  maxTotalChars: number;
}

/** 50 steps per stack, 8 Mi characters per history; 100 histories and 32 Mi characters per user; 128 Mi characters in all. */
export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { maxSteps: 50, maxChars: 8 * 1024 * 1024, maxHistoriesPerUser: 100, maxCharsPerUser: 32 * 1024 * 1024, maxTotalChars: 128 * 1024 * 1024 };

interface History {
  undo: EditStep[];
  redo: EditStep[];
  /** Characters held by both stacks (kept up to date by `resize`). */
  chars: number;
}

/** One user's histories, least recently used first, and the text they hold. */
interface Share {
  histories: Map<string, History>;
  chars: number;
}

const size = (step: EditStep) => step.before.length + step.after.length;

const historySize = (history: History) => [...history.undo, ...history.redo].reduce((sum, step) => sum + size(step), 0);

/** The edit histories of every user and pipeline. */
export class EditHistories {
  private readonly shares = new Map<string, Share>();
  private total = 0;

  constructor(private readonly limits: HistoryLimits = DEFAULT_HISTORY_LIMITS) {}

  /** Records an edit: it goes on the undo stack, and the redo stack is cleared. */
  record(user: string, pipeline: string, step: EditStep): void {
    const history = this.take(user, pipeline);
    history.undo.push(step);
    history.redo = [];
    this.trim(user, history);
    this.evictWithin(user, pipeline);
    this.evictOverall(user, pipeline);
  }

  /** The latest edit, or undefined. */
  lastEdit(user: string, pipeline: string): EditStep | undefined {
    return this.find(user, pipeline)?.undo.at(-1);
  }

  /** The latest undone edit, or undefined. */
  lastUndone(user: string, pipeline: string): EditStep | undefined {
    return this.find(user, pipeline)?.redo.at(-1);
  }

  /** Moves the latest edit to the redo stack. */
  undo(user: string, pipeline: string): EditStep | undefined {
    const history = this.take(user, pipeline);
    const step = history.undo.pop();
    if (step) history.redo.push(step);
    this.trim(user, history);
    return step;
  }

  /** Moves the latest undone edit back to the undo stack. */
  redo(user: string, pipeline: string): EditStep | undefined {
    const history = this.take(user, pipeline);
    const step = history.redo.pop();
    if (step) history.undo.push(step);
    this.trim(user, history);
    return step;
  }

  /** How many steps each stack holds. */
  depths(user: string, pipeline: string): { undo_depth: number; redo_depth: number } {
    const history = this.find(user, pipeline);
    return { undo_depth: history?.undo.length ?? 0, redo_depth: history?.redo.length ?? 0 };
  }

  private find(user: string, pipeline: string): History | undefined {
    return this.shares.get(user)?.histories.get(pipeline);
  }

  /** The history, made most recently used (created when missing). */
  private take(user: string, pipeline: string): History {
    let share = this.shares.get(user);
    if (!share) this.shares.set(user, (share = { histories: new Map(), chars: 0 }));
    const history = share.histories.get(pipeline) ?? { undo: [], redo: [], chars: 0 };
    // Re-inserting keeps the map in least-recently-used order.
    share.histories.delete(pipeline);
    share.histories.set(pipeline, history);
    return history;
  }

  /** Drops the user's own least recently used histories (never `keep`) past their count or their text. */
  private evictWithin(user: string, keep: string): void {
    const share = this.shares.get(user)!;
    for (const [pipeline] of share.histories) {
      if (share.histories.size <= this.limits.maxHistoriesPerUser && share.chars <= this.limits.maxCharsPerUser) return;
      if (pipeline !== keep) this.drop(user, pipeline);
    }
  }

  /** Past the service's ceiling: the user holding the most (besides the history just edited) loses their oldest history, and so on. */
  private evictOverall(editor: string, keep: string): void {
    while (this.total > this.limits.maxTotalChars) {
      let largest: { user: string; chars: number } | undefined;
      for (const [user, share] of this.shares) {
        const evictable = share.chars - (user === editor ? (share.histories.get(keep)?.chars ?? 0) : 0);
        if (evictable > 0 && (!largest || evictable > largest.chars)) largest = { user, chars: evictable };
      }
      if (!largest) return;
      const oldest = [...this.shares.get(largest.user)!.histories.keys()].find((pipeline) => largest.user !== editor || pipeline !== keep)!;
      this.drop(largest.user, oldest);
    }
  }

  private drop(user: string, pipeline: string): void {
    const share = this.shares.get(user)!;
    const history = share.histories.get(pipeline)!;
    share.histories.delete(pipeline);
    share.chars -= history.chars;
    this.total -= history.chars;
    if (share.histories.size === 0) this.shares.delete(user);
  }

  /** Bounds one history's stacks, then brings the user's and the service's counts up to date. */
  private trim(user: string, history: History): void {
    for (const stack of [history.undo, history.redo]) if (stack.length > this.limits.maxSteps) stack.splice(0, stack.length - this.limits.maxSteps);
    let chars = historySize(history);
    // The oldest edits go first (the bottom of the undo stack, then the bottom of the redo stack).
    while (chars > this.limits.maxChars && history.undo.length + history.redo.length > 1) {
      const stack = history.undo.length > 0 ? history.undo : history.redo;
      chars -= size(stack.shift()!);
    }
    const share = this.shares.get(user)!;
    share.chars += chars - history.chars;
    this.total += chars - history.chars;
    history.chars = chars;
  }
}
