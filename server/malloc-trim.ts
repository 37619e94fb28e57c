/**
 * When the server hands malloc's free pages back to the system (`openMallocTrim`, codecs/libc.ts; ADR 053). Deno
 * allocates a job's buffers (the upload on this thread, pixels and outputs in a codec worker's thread) in glibc's
 * arenas; blocks under 1 MB freed stay resident unless they lie at an arena's top, which interleaved allocations
 * rarely leave, so the next batch started on top of what the last one freed: between steps of the public mixed
 * run the main arena read 146-263 MB (the store held about 80 MB). A trim runs off this thread (5-18 ms in a busy
 * process), after jobs and collections, at most once per `minIntervalMs`.
 */
export interface Trimmer {
  /** A trim soon: after `afterMs` (default 0) and at least the interval after the last one. */
  soon(afterMs?: number): void;
  close(): void;
}

export interface TrimmerOptions {
  trim: () => Promise<unknown>;
  minIntervalMs?: number;
  now?: () => number;
}

export function createTrimmer(options: TrimmerOptions): Trimmer {
  const minIntervalMs = options.minIntervalMs ?? 1_000;
  const now = options.now ?? (() => performance.now());
  let lastAt = -Infinity;
  let running = false;
  let again = false;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const run = () => {
    timer = null;
    if (closed) return;
    running = true;
    again = false;
    lastAt = now();
    options.trim().catch(() => {}).finally(() => {
      running = false;
      if (again) soon();
    });
  };
  const soon = (afterMs = 0) => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    if (timer !== null) return;
    timer = setTimeout(run, Math.max(afterMs, lastAt + minIntervalMs - now()));
  };
  return {
    soon,
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
