/**
 * The event bus behind `GET /api/events`: run and job events fanned out to subscribers, each with a
 * bounded queue so that a slow reader loses events (and is told how many) instead of holding memory or
 * slowing anyone else, plus a bounded ring of recent events for `Last-Event-ID` replay.
 *
 * Ids are consecutive integers from 1, one per published event, so the ring finds an id by arithmetic.
 * A `lagged` notice has no id and takes none: a client that resumes from the last id it saw still
 * resumes at a real event.
 */

/** The event types of the specification (`lagged` is made by the bus, never published). */
export const EVENT_TYPES = [
  "run_queued",
  "run_started",
  "run_paused",
  "run_resumed",
  "run_completed",
  "run_failed",
  "run_cancelled",
  "job_started",
  "job_completed",
  "job_failed",
  "job_skipped",
  "run_connection",
  "lagged",
] as const;

/** What each event of `GET /api/events` says, for the events reference (`docs/reference/events.md`). */
export const EVENT_TYPE_MEANING: { readonly [T in (typeof EVENT_TYPES)[number]]: string } = {
  run_queued: "a run was created and waits for its engine to start; `data`: `run_id`, `workflow_name`, `pipeline_id`, `retry_of`, `created_at`",
  run_started: "the run's engine started; `data`: `run_id`, `workflow_name`, `started_at`, `retry_of`",
  run_paused: "the run was paused (no new job starts, running local jobs are suspended); `data`: `run_id`, `status`",
  run_resumed: "the paused run goes on; `data`: `run_id`, `status`",
  run_completed: "the run ended with every required job done; `data`: `run_id`, `status`, `finished_at`, `exit_code`, `counts`, `error`",
  run_failed: "the run ended with a failure; `data` as for `run_completed`, with `error` saying why",
  run_cancelled: "the run was cancelled; `data`: `run_id`, `status`, `finished_at` or `cancelled_at`, `counts`, `error` (why)",
  job_started: "a job started; `data`: `run_id`, `job`, `rule`, `attempt`",
  job_completed: "a job succeeded; `data`: `run_id`, `job`, `rule`, `exit_code`, `duration_ms`",
  job_failed: "a job failed; `data`: `run_id`, `job`, `rule`, `exit_code`, `duration_ms`, `error`",
  job_skipped: "a job did not run, or was stopped by a cancel; `data`: `run_id`, `job`, `rule`, `reason` (text)",
  run_connection:
    "a run on a remote cluster lost or regained its connection to the login node (the run goes on: the service reconnects with backoff); `data`: `run_id`, `cluster_id`, `state` (connecting, connected, reconnecting, refused, closed), `attempts`, `error`, `retry_at`",
  lagged: "made by the stream itself, never published: the subscriber fell behind (or reconnected after more than the replay ring holds) and missed `data.missed` events; refetch what you show",
};

/** One event as subscribers receive it: a sequence id and the specified record `{type, time, data}`. */
export interface ServiceEvent {
  id: number;
  type: string;
  time: string;
  data: Record<string, unknown>;
  /** The user whose run this is (subscribers that may not read it do not see it); undefined: everyone. */
  owner?: string;
}

/** The synthetic notice that events were lost between what came before it and what comes after it. */
export interface LaggedEvent {
  id?: undefined;
  type: "lagged";
  time: string;
  data: { missed: number };
  owner?: undefined;
}

/** What a subscription yields. */
export type Delivery = ServiceEvent | LaggedEvent;

export interface EventBusOptions {
  /** Events a subscriber may have waiting before it is lagging (default 100, the specification's). */
  bufferSize?: number;
  /** Recent events kept for `Last-Event-ID` replay (default 1000). */
  ringSize?: number;
}

export interface SubscribeOptions {
  /** Replay the ring's events with a greater id first (the client's `Last-Event-ID`). */
  afterId?: number;
  /** Which events this subscriber sees (default: all); called once per event at publish, so keep it cheap. */
  accept?: (event: ServiceEvent) => boolean;
}

/** One subscriber's view of the bus: events in id order, with `lagged` notices where some were lost. */
export interface Subscription extends AsyncIterableIterator<Delivery, undefined> {
  /** The next delivery; waits for one; `done` once the subscription is closed. */
  next(): Promise<IteratorResult<Delivery, undefined>>;
  /** The next delivery if one is waiting (does not wait). */
  poll(): Delivery | undefined;
  /** Stops delivery and releases the slot (idempotent); a waiting `next()` resolves `done`. */
  close(): void;
  readonly closed: boolean;
}

/** A fixed-capacity FIFO that refuses (rather than grows) when full. */
class BoundedQueue<T> {
  private readonly items: (T | undefined)[];
  private head = 0;
  length = 0;

  constructor(readonly capacity: number) {
    this.items = new Array<T | undefined>(capacity);
  }

  /** Appends unless full; false when full. */
  offer(item: T): boolean {
    if (this.length === this.capacity) return false;
    this.items[(this.head + this.length) % this.capacity] = item;
    this.length++;
    return true;
  }

  /** Appends, dropping the oldest item when full. */
  push(item: T): void {
    if (!this.offer(item)) {
      this.shift();
      this.offer(item);
    }
  }

  shift(): T | undefined {
    if (this.length === 0) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) % this.capacity;
    this.length--;
    return item;
  }

  /** The item `index` places from the front. */
  at(index: number): T | undefined {
    return index < 0 || index >= this.length ? undefined : this.items[(this.head + index) % this.capacity];
  }
}

const lagged = (missed: number): LaggedEvent => ({ type: "lagged", time: new Date().toISOString(), data: { missed } });

/** A queued live event and how many were dropped just before it. */
interface Slot {
  event: ServiceEvent;
  missedBefore: number;
}

class Subscriber implements Subscription {
  /** Delivered before the queue: the replay (with its gap notice) and the event behind a lagged notice. */
  private front: Delivery[] = [];
  private frontIndex = 0;
  private readonly queue: BoundedQueue<Slot>;
  /** Events dropped since the last slot was queued. */
  private missed = 0;
  private waiter: ((result: IteratorResult<Delivery, undefined>) => void) | undefined;
  closed = false;

  constructor(
    bufferSize: number,
    readonly accept: (event: ServiceEvent) => boolean,
    private readonly detach: (subscriber: Subscriber) => void,
    replay: Delivery[],
  ) {
    this.queue = new BoundedQueue(bufferSize);
    this.front = replay;
  }

  /** Called by publish: never waits, O(1). Returns whether the event had to be dropped. */
  offer(event: ServiceEvent): boolean {
    if (!this.queue.offer({ event, missedBefore: this.missed })) {
      this.missed++;
      return true;
    }
    this.missed = 0;
    this.wake();
    return false;
  }

  private wake(): void {
    const waiter = this.waiter;
    if (!waiter) return;
    const value = this.poll();
    if (value === undefined) return;
    this.waiter = undefined;
    waiter({ value, done: false });
  }

  poll(): Delivery | undefined {
    if (this.closed) return undefined;
    if (this.frontIndex < this.front.length) {
      const value = this.front[this.frontIndex++]!;
      if (this.frontIndex === this.front.length) {
        this.front = [];
        this.frontIndex = 0;
      }
      return value;
    }
    const slot = this.queue.shift();
    if (slot) {
      if (slot.missedBefore === 0) return slot.event;
      this.front = [slot.event];
      return lagged(slot.missedBefore);
    }
    // Nothing newer has been queued since the drop: say so now rather than when the next event comes.
    if (this.missed > 0) {
      const missed = this.missed;
      this.missed = 0;
      return lagged(missed);
    }
    return undefined;
  }

  next(): Promise<IteratorResult<Delivery, undefined>> {
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    const value = this.poll();
    if (value !== undefined) return Promise.resolve({ value, done: false });
    if (this.waiter) return Promise.reject(new Error("Subscription.next() called while another next() is waiting"));
    return new Promise((resolve) => (this.waiter = resolve));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.front = [];
    while (this.queue.shift());
    this.detach(this);
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.({ value: undefined, done: true });
  }

  return(): Promise<IteratorResult<Delivery, undefined>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/** Fan-out of service events to SSE subscribers. */
export class EventBus {
  readonly bufferSize: number;
  readonly ringSize: number;
  private readonly ring: BoundedQueue<ServiceEvent>;
  private readonly subscribers = new Set<Subscriber>();
  private readonly observers: ((event: ServiceEvent) => void)[] = [];
  private lastId = 0;
  private dropped = 0;

  constructor(readonly options: EventBusOptions = {}) {
    this.bufferSize = positive(options.bufferSize ?? 100, "bufferSize");
    this.ringSize = positive(options.ringSize ?? 1000, "ringSize");
    this.ring = new BoundedQueue(this.ringSize);
  }

  /** Publishes an event to every subscriber and the replay ring. */
  publish(type: string, data: Record<string, unknown>, owner?: string): ServiceEvent {
    const event: ServiceEvent = { id: ++this.lastId, type, time: new Date().toISOString(), data };
    if (owner !== undefined) event.owner = owner;
    this.ring.push(event);
    for (const observer of this.observers) observer(event);
    for (const subscriber of this.subscribers) {
      if (subscriber.accept(event) && subscriber.offer(event)) this.dropped++;
    }
    return event;
  }

  /**
   * Starts a subscription. With `afterId`, the ring's accepted events after it come first; when the ring
   * no longer reaches back to `afterId + 1`, a `lagged` notice counting the evicted events precedes them
   * (every evicted event counts: the bus no longer knows whose they were). An `afterId` beyond the newest
   * id comes from an earlier process: the whole ring is replayed behind a `lagged` notice.
   */
  subscribe(options: SubscribeOptions = {}): Subscription {
    const accept = options.accept ?? (() => true);
    const replay: Delivery[] = [];
    const { afterId } = options;
    if (afterId !== undefined) {
      const oldest = this.ring.at(0)?.id ?? this.lastId + 1;
      const stale = afterId > this.lastId;
      const from = stale ? 0 : afterId;
      const gap = Math.max(0, oldest - 1 - from);
      if (gap > 0 || stale) replay.push(lagged(gap));
      for (let index = Math.max(0, from + 1 - oldest); index < this.ring.length; index++) {
        const event = this.ring.at(index)!;
        if (accept(event)) replay.push(event);
      }
    }
    const subscriber = new Subscriber(this.bufferSize, accept, (gone) => this.subscribers.delete(gone), replay);
    this.subscribers.add(subscriber);
    return subscriber;
  }

  /** Calls `observer` with every event published from now on, in this process (the metrics count jobs so). */
  observe(observer: (event: ServiceEvent) => void): void {
    this.observers.push(observer);
  }

  /** Connected subscribers (for /api/metrics). */
  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** The newest id handed out (0 before the first publish). */
  get lastEventId(): number {
    return this.lastId;
  }

  /** Deliveries dropped because a subscriber's queue was full, over all subscribers since start. */
  get droppedTotal(): number {
    return this.dropped;
  }

  /** Closes every subscription (their streams end); for shutdown. */
  close(): void {
    for (const subscriber of [...this.subscribers]) subscriber.close();
  }
}

function positive(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`EventBus ${name} must be a positive integer, got ${value}`);
  return value;
}
