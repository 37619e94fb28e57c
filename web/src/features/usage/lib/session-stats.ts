import { type Job, sizeReduction } from "../../../../../contract/jobs.ts";
import { resultBytes } from "../../../lib/page-weight.ts";

export interface SessionStats {
  totalFiles: number;
  completed: number;
  originalSize: number;
  /** Average percent saved over jobs that have a compressed size (spec §3). */
  totalSavings: number;
}

export function sessionStats(
  jobs: Pick<Job, "status" | "originalSize" | "compressedSize" | "webSet">[],
): SessionStats {
  const sized = jobs.filter((j) => j.compressedSize !== null);
  // A web set is weighed by what a desktop loads of it, not by its ZIP (lib/page-weight.ts).
  const savings = sized.reduce((sum, j) => sum + sizeReduction(j.originalSize, resultBytes(j)), 0);
  return {
    totalFiles: jobs.length,
    completed: jobs.filter((j) => j.status === "completed").length,
    originalSize: jobs.reduce((sum, j) => sum + j.originalSize, 0),
    totalSavings: sized.length > 0 ? Math.round(savings / sized.length) : 0,
  };
}

/** Spec §9: currently processing / the concurrency limit, in percent. */
export const queueEfficiency = (processing: number, limit: number) =>
  limit > 0 ? Math.round((processing / limit) * 100) : 0;

/** Spec §4: warn at 80% of the daily limit, "Daily limit reached" at 100%. */
export function usageLevel(used: number, limit: number | null): "unlimited" | "ok" | "warning" | "reached" {
  if (limit === null) return "unlimited";
  if (used >= limit) return "reached";
  if (used >= limit * 0.8) return "warning";
  return "ok";
}
