/**
 * Picks the next job (DESIGN §5): premium before free, then the batch's
 * priority, then round-robin across users, then a user's batches in order
 * and a batch's larger images first, within each user's concurrency and the
 * memory budget. The pool only ever sees as many jobs as
 * it has workers, so these decisions are made here and not by the pool's FIFO.
 */
export interface QueuedJob {
  jobId: string;
  userId: number;
  batchId: string;
  /** 1 for Premium, 0 for free. */
  planPriority: number;
  /** 2 high, 1 normal, 0 low. */
  batchPriority: number;
  /** The most jobs this user may have running at once. */
  userLimit: number;
  /** Admission order: a user's batches run in the order they came. */
  order: number;
  /** Width × height from the header (0 if unreadable). */
  pixels: number;
}

/**
 * Times the first job in line may be passed over by smaller ones while it
 * waits for the budget; then it waits alone and is never starved.
 * The codec pool applies the same rule to its own queue.
 */
const MAX_PASSES = 4;

export type RunJob = (job: QueuedJob, signal: AbortSignal) => Promise<void>;

/** What jobs in work may use (memory): how much there is now, and what one job takes. */
export interface WorkBudget {
  room(): number;
  cost(job: QueuedJob): number;
}

const UNLIMITED: WorkBudget = { room: () => Infinity, cost: () => 0 };

export class Scheduler {
  #queue: QueuedJob[] = [];
  #running = new Map<string, { job: QueuedJob; controller: AbortController; done: Promise<void> }>();
  #pausedBatches = new Set<string>();
  #lastServed = new Map<number, number>();
  #tick = 0;
  #order = 0;
  #closed = false;
  #passedOver = new Map<string, number>();

  constructor(private slots: number, private run: RunJob, private budget: WorkBudget = UNLIMITED) {}

  nextOrder(): number {
    return ++this.#order;
  }

  enqueue(jobs: QueuedJob[]): void {
    this.#queue.push(...jobs);
    this.#dispatch();
  }

  runningFor(userId: number): number {
    let n = 0;
    for (const { job } of this.#running.values()) if (job.userId === userId) n++;
    return n;
  }

  get runningCount(): number {
    return this.#running.size;
  }

  get queuedCount(): number {
    return this.#queue.length;
  }

  isRunning(jobId: string): boolean {
    return this.#running.has(jobId);
  }

  pauseBatch(batchId: string): void {
    this.#pausedBatches.add(batchId);
  }

  resumeBatch(batchId: string): void {
    this.#pausedBatches.delete(batchId);
    this.#dispatch();
  }

  /** Drops queued jobs matching `pred`; returns their ids. */
  dropQueued(pred: (job: QueuedJob) => boolean): string[] {
    const dropped = this.#queue.filter(pred).map((j) => j.jobId);
    this.#queue = this.#queue.filter((j) => !pred(j));
    for (const id of dropped) this.#passedOver.delete(id);
    return dropped;
  }

  /** Aborts a running job; resolves when its runner has finished. */
  async abort(jobId: string): Promise<void> {
    const running = this.#running.get(jobId);
    if (!running) return;
    running.controller.abort(new DOMException("Cancelled", "AbortError"));
    await running.done;
  }

  /** Stops dispatching; waits up to `timeoutMs` for running jobs. */
  async drain(timeoutMs: number): Promise<void> {
    this.#closed = true;
    const all = Promise.all([...this.#running.values()].map((r) => r.done));
    await Promise.race([all, new Promise((r) => setTimeout(r, timeoutMs))]);
  }

  #pick(fits: (job: QueuedJob) => boolean = () => true): number {
    let best = -1;
    for (let i = 0; i < this.#queue.length; i++) {
      const job = this.#queue[i]!;
      if (this.#pausedBatches.has(job.batchId)) continue;
      if (this.runningFor(job.userId) >= job.userLimit) continue;
      if (!fits(job)) continue;
      if (best === -1 || this.#before(job, this.#queue[best]!)) best = i;
    }
    return best;
  }

  /**
   * The first job in line, or — while it would exceed the budget — the best
   * job behind it that fits, so a worker does not idle behind a big image.
   * An image alone always runs.
   */
  #next(): number {
    const first = this.#pick();
    if (first === -1 || this.#running.size === 0) return first;
    let room = this.budget.room();
    for (const { job } of this.#running.values()) room -= this.budget.cost(job);
    const head = this.#queue[first]!;
    if (this.budget.cost(head) <= room) return first;
    const passes = this.#passedOver.get(head.jobId) ?? 0;
    if (passes >= MAX_PASSES) return -1;
    const other = this.#pick((job) => this.budget.cost(job) <= room);
    if (other !== -1) this.#passedOver.set(head.jobId, passes + 1);
    return other;
  }

  #before(a: QueuedJob, b: QueuedJob): boolean {
    if (a.planPriority !== b.planPriority) return a.planPriority > b.planPriority;
    if (a.batchPriority !== b.batchPriority) return a.batchPriority > b.batchPriority;
    if (a.userId !== b.userId) {
      // Round-robin: the user served longest ago goes first.
      return (this.#lastServed.get(a.userId) ?? 0) < (this.#lastServed.get(b.userId) ?? 0);
    }
    // Within a batch, larger images first: the batch ends sooner, since small images then fill the
    // other worker beside a big one the memory budget will not pair with another (ADR 004).
    if (a.batchId === b.batchId && a.pixels !== b.pixels) return a.pixels > b.pixels;
    return a.order < b.order;
  }

  #dispatch(): void {
    while (!this.#closed && this.#running.size < this.slots) {
      const index = this.#next();
      if (index === -1) return;
      const [job] = this.#queue.splice(index, 1);
      this.#passedOver.delete(job!.jobId);
      this.#start(job!);
    }
  }

  #start(job: QueuedJob): void {
    this.#lastServed.set(job.userId, ++this.#tick);
    const controller = new AbortController();
    const done = this.run(job, controller.signal)
      .catch((err) => console.error(`Job ${job.jobId} runner failed:`, err))
      .finally(() => {
        this.#running.delete(job.jobId);
        this.#dispatch();
      });
    this.#running.set(job.jobId, { job, controller, done });
  }
}
