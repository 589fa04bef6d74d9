/**
 * The scheduler's ready list (§5.2): highest (priority + rounds waited) first, ties by name ascending. A job
 * pushed in round r with priority p has aged priority p + (now − r); comparing two jobs at the same moment
 * that is p − r, which is what the queue keys on.
 */
import { describe, expect, it } from "vitest";
import { ReadyQueue } from "../../../src/engine/run/ready-queue.js";

interface Item {
  index: number;
  name: string;
  priority: number;
  round: number;
}

/** Pops everything, returning the names in order. */
function popAll(queue: ReadyQueue, items: Item[]): string[] {
  const names: string[] = [];
  for (let index = queue.pop(); index !== undefined; index = queue.pop()) names.push(items[index]!.name);
  return names;
}

function queueOf(items: Item[]): ReadyQueue {
  const queue = new ReadyQueue();
  for (const item of items) queue.push(item.index, item.name, item.priority, item.round);
  return queue;
}

const items = (...specs: [name: string, priority: number, round?: number][]): Item[] => specs.map(([name, priority, round = 0], index) => ({ index, name, priority, round }));

/** The order the spec describes, computed the slow way at round `now`. */
function referenceOrder(list: Item[], now: number): string[] {
  return [...list]
    .sort((a, b) => {
      const aged = b.priority + (now - b.round) - (a.priority + (now - a.round));
      if (aged !== 0) return aged;
      return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
    })
    .map((item) => item.name);
}

describe("ReadyQueue", () => {
  it("is empty at first: size 0, nothing to peek, pop or drain", () => {
    const queue = new ReadyQueue();
    expect(queue.size).toBe(0);
    expect(queue.peek()).toBeUndefined();
    expect(queue.pop()).toBeUndefined();
    expect(queue.drain()).toEqual([]);
  });

  it("higher priority first", () => {
    const list = items(["low", 0], ["high", 10], ["mid", 5], ["negative", -3]);
    expect(popAll(queueOf(list), list)).toEqual(["high", "mid", "low", "negative"]);
  });

  it("equal priorities by name, ascending, whatever the push order", () => {
    const list = items(["charlie", 1], ["alpha", 1], ["bravo", 1], ["alpha2", 1]);
    expect(popAll(queueOf(list), list)).toEqual(["alpha", "alpha2", "bravo", "charlie"]);
  });

  it("peek shows the next job without removing it; pop returns the job's index", () => {
    const list = items(["b", 0], ["a", 0]);
    const queue = queueOf(list);
    expect(queue.peek()).toBe(1);
    expect(queue.peek()).toBe(1);
    expect(queue.size).toBe(2);
    expect(queue.pop()).toBe(1);
    expect(queue.size).toBe(1);
    expect(queue.pop()).toBe(0);
    expect(queue.size).toBe(0);
  });

  it("drain returns every index and empties the queue", () => {
    const list = items(["a", 0], ["b", 3], ["c", 1]);
    const queue = queueOf(list);
    expect(queue.drain().sort()).toEqual([0, 1, 2]);
    expect(queue.size).toBe(0);
    expect(queue.pop()).toBeUndefined();
  });

  describe("aging", () => {
    it("a low-priority job that waited enough rounds overtakes a newer high-priority one", () => {
      // "old" (priority 0) has been ready since round 0. A priority-3 job that became ready in round 2 has
      // aged 3 + 0 vs old's 0 + 2: it still goes first. One that became ready in round 5 (old: 0 + 5) does not.
      const early = items(["old", 0, 0], ["new", 3, 2]);
      expect(popAll(queueOf(early), early)).toEqual(["new", "old"]);
      const late = items(["old", 0, 0], ["new", 3, 5]);
      expect(popAll(queueOf(late), late)).toEqual(["old", "new"]);
    });

    it("equal aged priority is a tie, broken by name", () => {
      // old: 0 + 3 rounds waited = 3; new: 3 + 0 = 3.
      const zOld = items(["z_old", 0, 0], ["a_new", 3, 3]);
      expect(popAll(queueOf(zOld), zOld)).toEqual(["a_new", "z_old"]);
      const aOld = items(["a_old", 0, 0], ["z_new", 3, 3]);
      expect(popAll(queueOf(aOld), aOld)).toEqual(["a_old", "z_new"]);
    });

    it("jobs that became ready in the same round keep their priority order", () => {
      const list = items(["x", 1, 7], ["y", 4, 7], ["z", 2, 7]);
      expect(popAll(queueOf(list), list)).toEqual(["y", "z", "x"]);
    });

    it("a job that waits long enough overtakes any priority", () => {
      const list = items(["patient", -100, 0], ["urgent", 1000, 1101]);
      expect(popAll(queueOf(list), list)).toEqual(["patient", "urgent"]);
    });
  });

  it("matches the spec's order on many jobs pushed and popped in interleaved rounds", () => {
    // Deterministic pseudo-random mix of pushes and pops over 400 rounds.
    let seed = 12345;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const queue = new ReadyQueue();
    const all: Item[] = [];
    let waiting: Item[] = [];
    for (let round = 0; round < 400; round++) {
      const pushes = random(4);
      for (let k = 0; k < pushes; k++) {
        const item: Item = { index: all.length, name: `job${String(random(1000)).padStart(3, "0")}_${all.length}`, priority: random(21) - 10, round };
        all.push(item);
        waiting.push(item);
        queue.push(item.index, item.name, item.priority, item.round);
      }
      const pops = random(4);
      for (let k = 0; k < pops && waiting.length > 0; k++) {
        const expected = referenceOrder(waiting, round)[0]!;
        const index = queue.pop()!;
        expect(all[index]!.name).toBe(expected);
        waiting = waiting.filter((item) => item.index !== index);
      }
      expect(queue.size).toBe(waiting.length);
    }
    expect(popAll(queue, all)).toEqual(referenceOrder(waiting, 400));
  });

  it("handles a large queue (heap, not a sorted array)", () => {
    const queue = new ReadyQueue();
    const n = 100_000;
    for (let i = 0; i < n; i++) queue.push(i, `j${String(i).padStart(6, "0")}`, i % 7, 0);
    expect(queue.size).toBe(n);
    let last = { priority: Infinity, index: -1 };
    let outOfOrder = 0;
    for (let i = 0; i < n; i++) {
      const index = queue.pop()!;
      const priority = index % 7;
      // Priorities never go up; within a priority, names (here: indices) go up.
      if (!(priority < last.priority || (priority === last.priority && index > last.index))) outOfOrder++;
      last = { priority, index };
    }
    expect(outOfOrder).toBe(0);
    expect(queue.size).toBe(0);
  });
});
