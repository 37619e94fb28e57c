/**
 * Waiting for a state instead of sleeping and hoping: polls `condition` until it returns a truthy value
 * (which it resolves to), and fails with `message` when `timeoutMs` passes first.
 */
export interface WaitForOptions {
  /** How long the condition has to hold (default 5 s); with `progress`, how long it may go without progress. */
  timeoutMs?: number;
  /** Between polls (default 10 ms). */
  intervalMs?: number;
  /** What was awaited, for the timeout's error; a function is read at the timeout (to show the state). */
  message?: string | (() => string);
  /**
   * How far the awaited work has got (e.g. each job's status), read after each poll: every change restarts
   * `timeoutMs`. For work whose length depends on how busy the machine is: the wait lasts as long as the work
   * moves, and a hang still fails after `timeoutMs`.
   */
  progress?: () => unknown;
}

/**
 * How long a wait on jobs of a real codec pool may see no progress while the pool starts: before its first job
 * the host worker compiles every codec and the codec workers start, all at nice 10, so behind any busy process
 * (about 1 s on a quiet machine, 15-30 s with both cores kept busy by `stress-ng --cpu 2` and the suite). Used as
 * `timeoutMs` with `progress`, it bounds a hang, not the work.
 */
export const POOL_START_STALL_MS = 120_000;

type Truthy<T> = Exclude<T, false | 0 | "" | null | undefined>;

export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { timeoutMs = 5_000, intervalMs = 10, message = "the condition", progress }: WaitForOptions = {},
): Promise<Truthy<T>> {
  let deadline = performance.now() + timeoutMs;
  let reached = progress?.();
  for (;;) {
    const value = await condition();
    if (value) return value as Truthy<T>;
    const now = progress?.();
    if (now !== reached) {
      reached = now;
      deadline = performance.now() + timeoutMs;
    } else if (performance.now() >= deadline) {
      throw new Error(
        `Timed out after ${timeoutMs} ms ${progress ? "without progress " : ""}waiting for ${
          typeof message === "function" ? message() : message
        }`,
      );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
