/**
 * Lowers this worker thread's CPU priority (nice 10) on Linux, so that the
 * server's main thread — answering polls, downloads and uploads — wins the CPU
 * over batch compression when cores are saturated. Best effort: anywhere else,
 * or without FFI permission, it does nothing.
 */
const GETTID: Partial<Record<typeof Deno.build.arch, bigint>> = { x86_64: 186n, aarch64: 178n };
const NICE = 10;

export function lowerThreadPriority(): boolean {
  const gettid = GETTID[Deno.build.arch];
  if (Deno.build.os !== "linux" || gettid === undefined) return false;
  try {
    const libc = Deno.dlopen("libc.so.6", {
      syscall: { parameters: ["i64"], result: "i64" },
      setpriority: { parameters: ["i32", "u32", "i32"], result: "i32" },
    });
    const tid = Number(libc.symbols.syscall(gettid));
    const ok = libc.symbols.setpriority(0, /* PRIO_PROCESS: a tid names one thread */ tid, NICE) === 0;
    libc.close();
    return ok;
  } catch {
    return false;
  }
}
