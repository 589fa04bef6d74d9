/**
 * Local resource accounting: a thread pool, a memory pool and the `[resource_groups]` capacities. A
 * request larger than a pool is clamped to the pool, so a job bigger than the machine still runs (alone).
 * GPUs are not counted locally; only cluster directives use them.
 */

export interface ResourceRequest {
  threads: number;
  memoryMb: number;
  groups: Record<string, number>;
}

export interface PoolCapacity {
  threads: number;
  memoryMb: number;
  groups: Record<string, number>;
}

/** Free capacity, taken and given back by the scheduler. */
export class ResourcePool {
  private freeThreads: number;
  private freeMemory: number;
  private readonly freeGroups: Map<string, number>;

  constructor(private readonly capacity: PoolCapacity) {
    this.freeThreads = capacity.threads;
    this.freeMemory = capacity.memoryMb;
    this.freeGroups = new Map(Object.entries(capacity.groups));
  }

  /** Why a request can never be met (an undeclared group, more units than the group has), or undefined. */
  impossible(request: ResourceRequest): string | undefined {
    for (const [group, units] of Object.entries(request.groups)) {
      if (!Number.isInteger(units) || units < 0) return `resource group '${group}': units must be a whole number of at least 0, got ${units}`;
      const max = this.capacity.groups[group];
      if (max === undefined) return `resource group '${group}' is not declared in [resource_groups]`;
      if (units > max) return `resource group '${group}' exhausted: the job needs ${units} units, the group has ${max}`;
    }
    return undefined;
  }

  /** True when the (clamped) request fits in what is free now. */
  fits(request: ResourceRequest): boolean {
    if (this.clampThreads(request) > this.freeThreads) return false;
    if (this.clampMemory(request) > this.freeMemory) return false;
    for (const [group, units] of Object.entries(request.groups)) if (units > (this.freeGroups.get(group) ?? 0)) return false;
    return true;
  }

  take(request: ResourceRequest): void {
    this.freeThreads -= this.clampThreads(request);
    this.freeMemory -= this.clampMemory(request);
    for (const [group, units] of Object.entries(request.groups)) this.freeGroups.set(group, (this.freeGroups.get(group) ?? 0) - units);
  }

  give(request: ResourceRequest): void {
    this.freeThreads += this.clampThreads(request);
    this.freeMemory += this.clampMemory(request);
    for (const [group, units] of Object.entries(request.groups)) this.freeGroups.set(group, (this.freeGroups.get(group) ?? 0) + units);
  }

  private clampThreads(request: ResourceRequest): number {
    return Math.min(Math.max(request.threads, 0), this.capacity.threads);
  }

  private clampMemory(request: ResourceRequest): number {
    return Math.min(Math.max(request.memoryMb, 0), this.capacity.memoryMb);
  }
}
