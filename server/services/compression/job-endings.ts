/**
 * A signal for the end of a job run on this instance, so a caller waiting for a job (the API's
 * synchronous compress) wakes as soon as it ends instead of polling the database in a loop.
 * The runner, the controls and retention call `ended` after the transition that ended a job (or
 * released it); waiters read the job again then. A job another instance runs (a shared queue)
 * sends no signal here: waiters also wake every `fallbackMs` and read it.
 */
export class JobEndings {
  #waiters = new Map<string, Set<() => void>>();
  #listeners: ((jobIds: string[]) => void)[] = [];

  /** `fn` hears of every job ended here, waited for or not (head starts let go of theirs: ADR 056). */
  listen(fn: (jobIds: string[]) => void): void {
    this.#listeners.push(fn);
  }

  /** Wakes whoever waits for these jobs (a spurious wake is harmless: the waiter reads the job). */
  ended(jobIds: Iterable<string>): void {
    const ids = [...jobIds];
    for (const fn of this.#listeners) fn(ids);
    for (const id of ids) {
      const waiters = this.#waiters.get(id);
      if (!waiters) continue;
      this.#waiters.delete(id);
      for (const wake of waiters) wake();
    }
  }

  /**
   * Resolves when `jobId` is signalled as ended, after `fallbackMs`, or when `signal` aborts,
   * whichever comes first. Register before reading the job's status, then await: an end that
   * lands between the read and the await is not missed.
   */
  next(jobId: string, fallbackMs: number, signal?: AbortSignal): { wait: Promise<void>; cancel(): void } {
    let wake!: () => void;
    const wait = new Promise<void>((resolve) => (wake = resolve));
    const waiters = this.#waiters.get(jobId) ?? new Set();
    this.#waiters.set(jobId, waiters);
    waiters.add(wake);
    const timer = setTimeout(wake, fallbackMs);
    const onAbort = () => wake();
    signal?.addEventListener("abort", onAbort, { once: true });
    const cancel = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      const set = this.#waiters.get(jobId);
      set?.delete(wake);
      if (set?.size === 0) this.#waiters.delete(jobId);
    };
    return { wait: wait.then(cancel), cancel };
  }

  /** How many jobs have waiters (for tests and leaks). */
  get waitedJobs(): number {
    return this.#waiters.size;
  }
}
