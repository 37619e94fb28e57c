/** One line per figure, `name: value unit`, so other benches (HTTP) can print in the same style. */
export function figure(name: string, value: number | string, unit = ""): void {
  const text = typeof value === "number" ? (Number.isInteger(value) ? String(value) : value.toFixed(2)) : value;
  console.log(`${name}: ${text}${unit ? ` ${unit}` : ""}`);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Peak resident set of this process; workers are threads, so this covers them. */
export async function peakRssMb(): Promise<number> {
  const status = await Deno.readTextFile("/proc/self/status");
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Starts a new peak-RSS window (Linux: writing 5 to clear_refs resets VmHWM to the current RSS). */
export async function resetPeakRss(): Promise<void> {
  await Deno.writeTextFile("/proc/self/clear_refs", "5");
}

/** Runs `work` for items 0..count-1 on `lanes` lanes, each taking the next item when it is done; results in item order. */
export async function onLanes<T>(
  count: number,
  lanes: number,
  work: (i: number, lane: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: lanes }, async (_, lane) => {
    while (next < count) {
      const i = next++;
      results[i] = await work(i, lane);
    }
  }));
  return results;
}
