/**
 * Free memory handed back to the system after jobs (ADR 053). A job's buffers (the upload on this thread, the
 * pixels and outputs in a codec worker's thread) are malloc'd by Deno in glibc arenas; freed, they stay resident
 * in the arena until glibc finds a free run at the arena's very top, which fragmentation rarely leaves. So the
 * resident size carried into the next batch what the last one freed: on the public mixed run the main arena read
 * 146-263 MB and the worker arenas up to 164 MB between steps, with about 80 MB held by the store.
 * `malloc_trim(0)` returns every arena's free pages; it runs off this thread (a nonblocking FFI call, 5-18 ms
 * in a busy process), at most once per `minIntervalMs`, and only where the runtime lets us load glibc.
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

/**
 * glibc's `malloc_trim`, called off this thread; null where it cannot be loaded (not Linux with glibc, or no FFI
 * permission). The caller closes the library when done.
 */
export function openMallocTrim(): { trim: () => Promise<unknown>; close: () => void } | null {
  if (Deno.build.os !== "linux") return null;
  try {
    const libc = Deno.dlopen("libc.so.6", {
      malloc_trim: { parameters: ["usize"], result: "i32", nonblocking: true },
    });
    return { trim: () => libc.symbols.malloc_trim(0n), close: () => libc.close() };
  } catch {
    return null;
  }
}
