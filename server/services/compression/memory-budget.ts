/**
 * Memory for stored originals and results plus images in work (the scheduler's budget, ADR 004),
 * derived from the configuration: the store's cap less what each codec worker may keep between jobs.
 *
 * A worker's WASM heaps grow with the largest image; they were kept until they passed 160 MiB (codecs/README.md,
 * "Memory"), about 122 MiB each idle after typical photos. Since ADR 035 a worker gives back every heap over
 * 48 MiB between jobs and keeps less; the 122 stays as the margin for the server's own memory. With the defaults
 * (`MAX_STORE_BYTES` 1 GiB, 2 workers) this is the 780 MiB the budget was measured at: a 20 × 10 MB upload
 * (about 200 MB held) then leaves room for one 10 MP image in work at a time. A lone job always runs,
 * whatever the store holds, so a small budget slows work down but never stops it.
 */
export const IDLE_WORKER_BYTES = 122 * 1024 * 1024;

export function memoryBudgetBytes(maxStoreBytes: number, workers: number): number {
  return Math.max(0, maxStoreBytes - workers * IDLE_WORKER_BYTES);
}
