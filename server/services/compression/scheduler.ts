/**
 * Runs queued jobs on this instance's slots: the next job is the scheduling policy's
 * (scheduling/policy.ts), within the memory budget. The pool only ever sees as many jobs as it
 * has workers, so these decisions are made here and not by the pool's FIFO.
 */
import { nextJob, type QueuedJob, type QueueState } from "../scheduling/policy.ts";
import { log } from "../../log.ts";

/**
 * Times the first job in line may be passed over by smaller ones while it
 * waits for the budget; then it waits alone and is never starved.
 * The codec pool applies the same rule to its own queue.
 */
const MAX_PASSES = 4;

/** `lanes`: the slots the job holds (more than one only for a job that can split and runs alone). */
export type RunJob = (job: QueuedJob, signal: AbortSignal, lanes: number) => Promise<void>;

/**
 * Work that only fills idle slots (deferred quality scores): it runs when no
 * job can start, and any job enqueued later goes before it.
 */
export interface BackgroundTask {
  /** Unique among background tasks (e.g. "score:<jobId>"). */
  id: string;
  /** Width × height and bytes per pixel at its peak (and the file's bytes), for the memory budget. */
  pixels: number;
  perPixel: number;
  bytes?: number;
  /** Work for a user's job (a head start): it counts against the user's jobs at once (`userLimit`). */
  user?: { id: number; limit: number };
  run(signal: AbortSignal): Promise<void>;
}

/** What jobs in work may use (memory): how much there is now, and what one job takes. */
export interface WorkBudget {
  room(): number;
  cost(job: { pixels: number; bytes?: number; perPixel: number }): number;
}

const UNLIMITED: WorkBudget = { room: () => Infinity, cost: () => 0 };

export class Scheduler {
  #queue: QueuedJob[] = [];
  #background: BackgroundTask[] = [];
  #running = new Map<string, { job: QueuedJob; lanes: number; controller: AbortController; done: Promise<void> }>();
  #runningBackground = new Map<string, { task: BackgroundTask; controller: AbortController; done: Promise<void> }>();
  #pausedBatches = new Set<string>();
  #lastServed = new Map<number, number>();
  #tick = 0;
  #order = 0;
  #closed = false;
  #passedOver = new Map<string, number>();
  /** Jobs that take over a background task's work (`handOver`), by job id. */
  #handOvers = new Map<string, string>();
  /** Called when a job or background task ends here (a slot is free): the shared queue pulls then (queue-puller.ts). */
  onSlotFree: (() => void) | undefined;
  /**
   * How long a slot freed by a job waits before taking background work. On a shared queue the jobs are
   * in the database, not in this scheduler: the puller needs a moment to claim the next one, and a
   * deferred score taking the slot first would keep a queued job waiting for the whole measurement.
   */
  backgroundDelayMs = 0;
  #backgroundAfter = 0;
  #backgroundTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(readonly slots: number, private run: RunJob, private budget: WorkBudget = UNLIMITED) {}

  nextOrder(): number {
    return ++this.#order;
  }

  enqueue(jobs: QueuedJob[]): void {
    this.#queue.push(...jobs);
    this.#dispatch();
  }

  /** Queues idle-time work; a task whose id is already queued or running is not added twice. */
  enqueueBackground(task: BackgroundTask): void {
    if (this.#runningBackground.has(task.id) || this.#background.some((t) => t.id === task.id)) return;
    this.#background.push(task);
    this.#dispatch();
  }

  /**
   * The job `jobId`, once queued, is the work of the background task `taskId` (a head start, ADR 056): it
   * runs at once, in that task's slot, whatever the policy says, as its work is running or done already.
   */
  handOver(taskId: string, jobId: string): void {
    this.#handOvers.set(jobId, taskId);
    this.#dispatch();
  }

  /** Takes a queued background task off the queue (one already running goes on). */
  dropBackground(id: string): void {
    this.#background = this.#background.filter((t) => t.id !== id);
  }

  get backgroundCount(): number {
    return this.#background.length + this.#runningBackground.size;
  }

  runningFor(userId: number): number {
    let n = 0;
    for (const { job } of this.#running.values()) if (job.userId === userId) n++;
    return n;
  }

  /** The user's jobs running here and the background work run for them (head starts). */
  #inWorkFor(userId: number): number {
    let n = this.runningFor(userId);
    for (const { task } of this.#runningBackground.values()) if (task.user?.id === userId) n++;
    return n;
  }

  get runningCount(): number {
    return this.#running.size;
  }

  /** Slots the running jobs hold: one each, more for a web set split over the workers while alone. */
  get slotsInUse(): number {
    let slots = 0;
    for (const { lanes } of this.#running.values()) slots += lanes;
    return slots;
  }

  /** Ids of the jobs queued here, in no order. */
  queuedIds(): string[] {
    return this.#queue.map((j) => j.jobId);
  }

  /** Ids of the jobs queued or running here: the ones this instance holds leases on. */
  heldIds(): string[] {
    return [...this.queuedIds(), ...this.#running.keys()];
  }

  /** Ids of the background tasks running here (e.g. "score:<jobId>"). */
  runningBackgroundIds(): string[] {
    return [...this.#runningBackground.keys()];
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
    for (const id of dropped) {
      this.#passedOver.delete(id);
      this.#handOvers.delete(id);
    }
    return dropped;
  }

  /** Aborts a running job; resolves when its runner has finished. */
  async abort(jobId: string): Promise<void> {
    const running = this.#running.get(jobId);
    if (!running) return;
    running.controller.abort(new DOMException("Cancelled", "AbortError"));
    await running.done;
  }

  /** Stops dispatching and drops background work; waits up to `timeoutMs` for running jobs. */
  async drain(timeoutMs: number): Promise<void> {
    this.#closed = true;
    this.#background = [];
    if (this.#backgroundTimer) clearTimeout(this.#backgroundTimer);
    for (const { controller } of this.#runningBackground.values()) controller.abort();
    const all = Promise.all([...this.#running.values(), ...this.#runningBackground.values()].map((r) => r.done));
    await Promise.race([all, new Promise((r) => setTimeout(r, timeoutMs))]);
  }

  #pick(fits?: (job: QueuedJob) => boolean): number {
    const job = nextJob(this.#queue, this.#state(), fits);
    return job === undefined ? -1 : this.#queue.indexOf(job);
  }

  #state(): QueueState {
    const inWork = new Map<number, number>();
    for (const { job } of this.#running.values()) inWork.set(job.userId, (inWork.get(job.userId) ?? 0) + 1);
    return { inWork, lastServed: this.#lastServed, paused: this.#pausedBatches };
  }

  /**
   * The first job in line, or — while it would exceed the budget — the best
   * job behind it that fits, so a worker does not idle behind a big image.
   * An image alone always runs.
   */
  #next(): number {
    const first = this.#pick();
    if (first === -1 || this.#busy === 0) return first;
    const room = this.#room();
    const head = this.#queue[first]!;
    if (this.budget.cost(head) <= room) return first;
    const passes = this.#passedOver.get(head.jobId) ?? 0;
    if (passes >= MAX_PASSES) return -1;
    const other = this.#pick((job) => this.budget.cost(job) <= room);
    if (other !== -1) this.#passedOver.set(head.jobId, passes + 1);
    return other;
  }

  /** Slots in use: a job's lanes, one per background task. */
  get #busy(): number {
    return this.slotsInUse + this.#runningBackground.size;
  }

  /** The budget left after everything in work. */
  #room(): number {
    let room = this.budget.room();
    for (const { job } of this.#running.values()) room -= this.budget.cost(job);
    for (const { task } of this.#runningBackground.values()) room -= this.budget.cost(task);
    return room;
  }

  #dispatch(): void {
    for (const [jobId, taskId] of this.#handOvers) {
      const index = this.#queue.findIndex((j) => j.jobId === jobId);
      if (this.#closed || index === -1) continue; // not queued yet
      this.#handOvers.delete(jobId);
      this.#runningBackground.delete(taskId); // its slot and memory are the job's now
      const [job] = this.#queue.splice(index, 1);
      this.#start(job!);
    }
    while (!this.#closed && this.#busy < this.slots) {
      const index = this.#next();
      if (index === -1) break;
      const [job] = this.#queue.splice(index, 1);
      this.#passedOver.delete(job!.jobId);
      this.#start(job!);
    }
    // Idle slots take background work, within the budget (alone, it always runs).
    while (!this.#closed && this.#busy < this.slots && this.#background.length > 0) {
      const wait = this.#backgroundAfter - Date.now();
      if (wait > 0) {
        this.#backgroundTimer ??= setTimeout(() => {
          this.#backgroundTimer = null;
          this.#dispatch();
        }, wait);
        return;
      }
      // The first task whose user has a job to spare (a head start counts as the user's job).
      const index = this.#background.findIndex((t) => !t.user || this.#inWorkFor(t.user.id) < t.user.limit);
      if (index === -1) return;
      const task = this.#background[index]!;
      if (this.#busy > 0 && this.budget.cost(task) > this.#room()) return;
      if (this.#pick() !== -1) return; // a job waits for the budget: it goes first
      this.#background.splice(index, 1);
      this.#startBackground(task);
    }
  }

  #startBackground(task: BackgroundTask): void {
    const controller = new AbortController();
    const done = task.run(controller.signal)
      .catch((error) => log.error("background task failed", { task: task.id, error }))
      .finally(() => {
        this.#runningBackground.delete(task.id);
        this.#dispatch();
        this.onSlotFree?.();
      });
    this.#runningBackground.set(task.id, { task, controller, done });
  }

  #start(job: QueuedJob): void {
    this.#lastServed.set(job.userId, ++this.#tick);
    const controller = new AbortController();
    // A job that can split (a web set) takes the free slots only when it is alone: nothing running and nothing
    // waiting here, so it never holds a slot another job could use (ADR 038). Like any lone job, it runs
    // whatever the budget says.
    const alone = this.#busy === 0 && this.#queue.length === 0;
    const lanes = alone ? Math.max(1, Math.min(job.lanes ?? 1, this.slots)) : 1;
    const done = this.run(job, controller.signal, lanes)
      .catch((error) => log.error("job runner failed", { job: job.jobId, error }))
      .finally(() => {
        this.#running.delete(job.jobId);
        this.#backgroundAfter = Date.now() + this.backgroundDelayMs;
        this.#dispatch();
        this.onSlotFree?.();
      });
    this.#running.set(job.jobId, { job, lanes, controller, done });
  }
}
