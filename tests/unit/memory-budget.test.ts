import assert from "node:assert/strict";
import { IDLE_WORKER_BYTES, memoryBudgetBytes } from "../../server/services/compression/memory-budget.ts";

const MiB = 1024 * 1024;

Deno.test("the memory budget is the store's cap less each worker's idle heaps: 780 MiB at the defaults", () => {
  assert.equal(memoryBudgetBytes(1024 * MiB, 2), 780 * MiB);
  // More workers keep more idle heap; a larger cap leaves more room for images in work.
  assert.equal(memoryBudgetBytes(1024 * MiB, 4), 1024 * MiB - 4 * IDLE_WORKER_BYTES);
  assert.equal(memoryBudgetBytes(2048 * MiB, 2) - memoryBudgetBytes(1024 * MiB, 2), 1024 * MiB);
  assert.equal(memoryBudgetBytes(100 * MiB, 8), 0, "never negative: a lone job still runs");
});
