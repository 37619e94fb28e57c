/**
 * Process and thread tuning through libc (Linux, glibc). Best effort: on any
 * other platform, or without FFI permission, each call does nothing and
 * returns false.
 */
const GETTID: Partial<Record<typeof Deno.build.arch, bigint>> = { x86_64: 186n, aarch64: 178n };
const NICE = 10;
const M_TRIM_THRESHOLD = -1;
const M_MMAP_THRESHOLD = -3;
/** Blocks of 1 MB and more get their own mapping; more than 1 MB free at a heap's top is given back. */
const THRESHOLD_BYTES = 1 << 20;
const MADV_HUGEPAGE = 14;

type Symbols = {
  syscall: { parameters: ["i64"]; result: "i64" };
  setpriority: { parameters: ["i32", "u32", "i32"]; result: "i32" };
  mallopt: { parameters: ["i32", "i32"]; result: "i32" };
  madvise: { parameters: ["pointer", "usize", "i32"]; result: "i32" };
};

/** glibc with these symbols, or null: the browser (the live preview's worker) has no Deno and no libc to tune. */
function openLibc<S extends Deno.ForeignLibraryInterface>(symbols: S): Deno.DynamicLibrary<S> | null {
  if (typeof Deno === "undefined" || Deno.build.os !== "linux") return null;
  try {
    return Deno.dlopen<S>("libc.so.6", symbols);
  } catch {
    return null;
  }
}

function withLibc(use: (libc: Deno.DynamicLibrary<Symbols>["symbols"]) => boolean): boolean {
  const libc = openLibc<Symbols>({
    syscall: { parameters: ["i64"], result: "i64" },
    setpriority: { parameters: ["i32", "u32", "i32"], result: "i32" },
    mallopt: { parameters: ["i32", "i32"], result: "i32" },
    madvise: { parameters: ["pointer", "usize", "i32"], result: "i32" },
  });
  if (!libc) return false;
  try {
    return use(libc.symbols);
  } catch {
    return false;
  } finally {
    libc.close();
  }
}

/**
 * Lowers this worker thread's CPU priority (nice 10), so that the server's
 * main thread — answering polls, downloads and uploads — wins the CPU over
 * batch compression when cores are saturated.
 */
export function lowerThreadPriority(): boolean {
  if (typeof Deno === "undefined") return false;
  const gettid = GETTID[Deno.build.arch];
  if (gettid === undefined) return false;
  return withLibc((libc) => {
    const tid = Number(libc.syscall(gettid));
    return libc.setpriority(0, /* PRIO_PROCESS: a tid names one thread */ tid, NICE) === 0;
  });
}

/**
 * Makes glibc give freed memory back to the system. By default its mmap
 * threshold rises to the largest block freed (up to 32 MB), so after one
 * image every image-sized buffer up to that size is carved from a malloc
 * arena, which keeps the pages after free; measured on the corpus with 2
 * workers this cut peak RSS by about 15% at the same speed
 * (docs/decisions/008-codec-workers-off-main-thread.md). Process-wide; effective at once.
 */
export function returnFreedMemory(): boolean {
  return withLibc((libc) =>
    libc.mallopt(M_MMAP_THRESHOLD, THRESHOLD_BYTES) === 1 && libc.mallopt(M_TRIM_THRESHOLD, THRESHOLD_BYTES) === 1
  );
}

/**
 * Asks the kernel to back `bytes` from the start of `buffer` with transparent
 * huge pages (where THP is "madvise", Debian's default). Each new worker
 * touches its codec heaps afresh, one 4 KB page fault at a time: about half
 * of a corpus run's 1.7 M page faults (docs/decisions/009-job-memory-and-page-faults.md).
 * The range may run past what is committed yet: V8 reserves a WASM memory's
 * whole address range up front, and the advice holds as the memory grows.
 */
export function adviseHugePages(buffer: ArrayBuffer, bytes: number): boolean {
  return withLibc((libc) => {
    const start = Deno.UnsafePointer.of(new Uint8Array(buffer));
    return start !== null && libc.madvise(start, BigInt(bytes), MADV_HUGEPAGE) === 0;
  });
}

/**
 * glibc's `malloc_trim(0)` as a nonblocking call (it runs on a thread of Deno's blocking pool, not the caller's):
 * every arena's free pages go back to the system, which `returnFreedMemory`'s thresholds do only for large blocks
 * and an arena's top (ADR 053). Null where libc cannot be loaded; the caller closes the library when done.
 */
export function openMallocTrim(): { trim: () => Promise<number>; close: () => void } | null {
  const libc = openLibc({ malloc_trim: { parameters: ["usize"], result: "i32", nonblocking: true } } as const);
  return libc && { trim: () => libc.symbols.malloc_trim(0n), close: () => libc.close() };
}
