/**
 * The ready list of the local scheduler: highest (priority + rounds waited) first, then name. Every job
 * ages by one per dispatch round, so the order between two waiting jobs only depends on
 * `priority − round it became ready`: a heap on that key gives the aged order without touching every
 * waiting job each round.
 */

interface Entry {
  key: number;
  name: string;
  index: number;
}

/** A binary max-heap of ready jobs keyed by aged priority, ties broken by name (ascending). */
export class ReadyQueue {
  private readonly heap: Entry[] = [];

  get size(): number {
    return this.heap.length;
  }

  /** Adds a job that became ready in dispatch round `round`. */
  push(index: number, name: string, priority: number, round: number): void {
    const heap = this.heap;
    heap.push({ key: priority - round, name, index });
    let child = heap.length - 1;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!before(heap[child]!, heap[parent]!)) break;
      [heap[child], heap[parent]] = [heap[parent]!, heap[child]!];
      child = parent;
    }
  }

  /** The job that goes next, without removing it. */
  peek(): number | undefined {
    return this.heap[0]?.index;
  }

  /** Removes and returns the job that goes next. */
  pop(): number | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined) return undefined;
    if (heap.length > 0) {
      heap[0] = last;
      let parent = 0;
      for (;;) {
        const left = parent * 2 + 1;
        const right = left + 1;
        let best = parent;
        if (left < heap.length && before(heap[left]!, heap[best]!)) best = left;
        if (right < heap.length && before(heap[right]!, heap[best]!)) best = right;
        if (best === parent) break;
        [heap[parent], heap[best]] = [heap[best]!, heap[parent]!];
        parent = best;
      }
    }
    return top.index;
  }

  /** Removes every entry and returns their indices. */
  drain(): number[] {
    return this.heap.splice(0).map((entry) => entry.index);
  }
}

function before(a: Entry, b: Entry): boolean {
  if (a.key !== b.key) return a.key > b.key;
  return a.name < b.name;
}
