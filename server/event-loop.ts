/**
 * Turns for other requests during work that would otherwise hold the server's thread (ADR 052). An upload's work
 * is a chain of promises that resolve at once when its bytes are already in memory (a Blob's parts, a buffered
 * body): without a macrotask between them, reading a 60 MB upload held the thread 200-250 ms in one piece, and
 * every poll waited.
 */

/** The next macrotask: timers and I/O run first. (`setImmediate` came back before the sockets were read.) */
const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * A gate to await between steps of one piece of work: it takes a turn once the work has held the thread for
 * `sliceMs` since its last turn or its last real wait (`waited()`). A turn costs about 2 ms (chained timeouts are
 * clamped), so one per step would add a quarter of a second to a 60 MB upload read in MiB steps.
 */
export function turnTaker(sliceMs = 8): { turn(): Promise<void>; waited(): void } {
  let since = performance.now();
  return {
    async turn() {
      if (performance.now() - since < sliceMs) return;
      await nextTurn();
      since = performance.now();
    },
    waited() {
      since = performance.now();
    },
  };
}
