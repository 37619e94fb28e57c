/**
 * Waiting for a state instead of sleeping and hoping: polls `condition` until it returns a truthy value
 * (which it resolves to), and fails with `message` when `timeoutMs` passes first.
 */
export interface WaitForOptions {
  /** How long the condition has to hold (default 5 s). */
  timeoutMs?: number;
  /** Between polls (default 10 ms). */
  intervalMs?: number;
  /** What was awaited, for the timeout's error; a function is read at the timeout (to show the state). */
  message?: string | (() => string);
}

type Truthy<T> = Exclude<T, false | 0 | "" | null | undefined>;

export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { timeoutMs = 5_000, intervalMs = 10, message = "the condition" }: WaitForOptions = {},
): Promise<Truthy<T>> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as Truthy<T>;
    if (performance.now() >= deadline) {
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${typeof message === "function" ? message() : message}`,
      );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
