/**
 * The event bus on its own: ids, the replay ring, the per-subscriber buffer and how lag is counted and
 * placed, filtering, and that subscriptions are released.
 */
import { describe, expect, it } from "vitest";
import { EventBus, type Delivery, type Subscription } from "../../../src/server/events/event-bus.js";

/** Everything a subscription has waiting, without waiting. */
function drain(subscription: Subscription): Delivery[] {
  const out: Delivery[] = [];
  for (let next = subscription.poll(); next !== undefined; next = subscription.poll()) out.push(next);
  return out;
}

/** A compact picture of deliveries: ids for events, `lagged:N` for notices. */
const shape = (deliveries: Delivery[]) => deliveries.map((d) => (d.type === "lagged" ? `lagged:${String(d.data.missed)}` : d.id));

describe("EventBus", () => {
  it("assigns consecutive ids from 1 and an RFC 3339 UTC time with milliseconds", () => {
    const bus = new EventBus();
    const first = bus.publish("run_queued", { run_id: "r1" });
    const second = bus.publish("run_started", { run_id: "r1" }, "alice");
    expect([first.id, second.id]).toEqual([1, 2]);
    expect(first.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(second).toMatchObject({ type: "run_started", data: { run_id: "r1" }, owner: "alice" });
    expect("owner" in first).toBe(false);
    expect(bus.lastEventId).toBe(2);
  });

  it("delivers to every subscriber in order and counts subscribers until they close", async () => {
    const bus = new EventBus();
    const a = bus.subscribe();
    const b = bus.subscribe();
    expect(bus.subscriberCount).toBe(2);
    const waiting = a.next();
    bus.publish("job_started", { job: "x" });
    bus.publish("job_completed", { job: "x" });
    expect((await waiting).value).toMatchObject({ id: 1, type: "job_started" });
    expect(shape(drain(a))).toEqual([2]);
    expect(shape(drain(b))).toEqual([1, 2]);
    a.close();
    a.close();
    expect(bus.subscriberCount).toBe(1);
    bus.publish("job_failed", {});
    expect(a.poll()).toBeUndefined();
    b.close();
    expect(bus.subscriberCount).toBe(0);
  });

  it("resolves a waiting next() as done when the subscription or the bus closes", async () => {
    const bus = new EventBus();
    const a = bus.subscribe();
    const b = bus.subscribe();
    const waitingA = a.next();
    const waitingB = b.next();
    a.close();
    expect(await waitingA).toEqual({ value: undefined, done: true });
    bus.close();
    expect(await waitingB).toEqual({ value: undefined, done: true });
    expect(bus.subscriberCount).toBe(0);
  });

  it("releases the subscription when a for-await loop breaks", async () => {
    const bus = new EventBus();
    const subscription = bus.subscribe();
    for (let i = 0; i < 3; i++) bus.publish("job_started", { i });
    const seen: number[] = [];
    for await (const event of subscription) {
      seen.push(event.id!);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual([1, 2]);
    expect(bus.subscriberCount).toBe(0);
  });

  it("keeps at most bufferSize events per subscriber, then drops and reports the count where the gap is", () => {
    const bus = new EventBus({ bufferSize: 3 });
    const slow = bus.subscribe();
    for (let i = 0; i < 5; i++) bus.publish("job_started", { i });
    // 4 and 5 found the queue full. One slot frees, 6 is queued behind the gap.
    expect(shape([slow.poll()!])).toEqual([1]);
    bus.publish("job_started", { i: 5 });
    bus.publish("job_started", { i: 6 });
    bus.publish("job_started", { i: 7 });
    const rest = drain(slow);
    expect(shape(rest)).toEqual([2, 3, "lagged:2", 6, "lagged:2"]);
    const notice = rest[2]!;
    expect(notice.id).toBeUndefined();
    expect(notice.time).toMatch(/Z$/);
    expect(bus.droppedTotal).toBe(4);
    // Caught up: new events flow again, without a notice.
    bus.publish("job_started", {});
    expect(shape(drain(slow))).toEqual([9]);
  });

  it("tells a subscriber waiting after a drop about the lag before any newer event", async () => {
    const bus = new EventBus({ bufferSize: 2 });
    const slow = bus.subscribe();
    for (let i = 0; i < 5; i++) bus.publish("job_started", { i });
    expect(shape(drain(slow))).toEqual([1, 2, "lagged:3"]);
    const waiting = slow.next();
    bus.publish("job_started", {});
    expect((await waiting).value).toMatchObject({ id: 6 });
  });

  it("never lets a slow subscriber hold back a fast one", async () => {
    const bus = new EventBus({ bufferSize: 10 });
    const slow = bus.subscribe();
    const fast = bus.subscribe();
    const received: Delivery[] = [];
    const reading = (async () => {
      for await (const event of fast) {
        received.push(event);
        if (event.id === 1000) break;
      }
    })();
    for (let i = 0; i < 1000; i++) {
      bus.publish("job_started", { i });
      // The fast reader gets a turn after every 5 publishes (half its buffer); the slow one never reads.
      if (i % 5 === 4) await new Promise((resolve) => setImmediate(resolve));
    }
    await reading;
    expect(received.map((d) => d.id)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(shape(drain(slow))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "lagged:990"]);
  });

  it("counts and delivers only the events a subscriber accepts", () => {
    const bus = new EventBus({ bufferSize: 2 });
    const bob = bus.subscribe({ accept: (event) => event.owner === undefined || event.owner === "bob" });
    bus.publish("run_started", {}, "alice");
    bus.publish("run_started", {}, "bob");
    bus.publish("run_started", {}, "alice");
    bus.publish("run_started", {});
    bus.publish("run_started", {}, "bob");
    expect(shape(drain(bob))).toEqual([2, 4, "lagged:1"]);
    expect(bus.droppedTotal).toBe(1);
  });

  it("replays ring events after afterId before live ones", () => {
    const bus = new EventBus({ ringSize: 5 });
    for (let i = 0; i < 4; i++) bus.publish("job_started", { i });
    const resumed = bus.subscribe({ afterId: 2 });
    bus.publish("job_completed", {});
    expect(shape(drain(resumed))).toEqual([3, 4, 5]);
    expect(shape(drain(bus.subscribe({ afterId: 5 })))).toEqual([]);
    expect(shape(drain(bus.subscribe({ afterId: 0 })))).toEqual([1, 2, 3, 4, 5]);
    expect(shape(drain(bus.subscribe()))).toEqual([]);
  });

  it("bounds the ring and counts the evicted gap when afterId is older than it", () => {
    const bus = new EventBus({ ringSize: 5 });
    for (let i = 0; i < 12; i++) bus.publish("job_started", { i });
    // The ring holds 8..12; 3..7 are gone.
    expect(shape(drain(bus.subscribe({ afterId: 2 })))).toEqual(["lagged:5", 8, 9, 10, 11, 12]);
    expect(shape(drain(bus.subscribe({ afterId: 7 })))).toEqual([8, 9, 10, 11, 12]);
    expect(shape(drain(bus.subscribe({ afterId: 0 })))).toEqual(["lagged:7", 8, 9, 10, 11, 12]);
  });

  it("treats an id beyond the newest as one from an earlier process: lagged, then the whole ring", () => {
    const bus = new EventBus({ ringSize: 5 });
    for (let i = 0; i < 3; i++) bus.publish("job_started", { i });
    expect(shape(drain(bus.subscribe({ afterId: 90 })))).toEqual(["lagged:0", 1, 2, 3]);
    for (let i = 0; i < 4; i++) bus.publish("job_started", { i });
    expect(shape(drain(bus.subscribe({ afterId: 90 })))).toEqual(["lagged:2", 3, 4, 5, 6, 7]);
  });

  it("filters the replay, and the replay does not count against the live buffer", () => {
    const bus = new EventBus({ ringSize: 10, bufferSize: 2 });
    for (let i = 0; i < 8; i++) bus.publish("run_started", {}, i % 2 === 0 ? "bob" : "alice");
    const bob = bus.subscribe({ afterId: 0, accept: (event) => event.owner === "bob" });
    expect(shape(drain(bob))).toEqual([1, 3, 5, 7]);
  });

  it("rejects nonsensical sizes", () => {
    expect(() => new EventBus({ bufferSize: 0 })).toThrow(RangeError);
    expect(() => new EventBus({ ringSize: 1.5 })).toThrow(RangeError);
  });
});
