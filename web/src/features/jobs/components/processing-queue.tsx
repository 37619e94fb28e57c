import { type ReactNode, useCallback, useMemo, useState } from "react";
import type { Job } from "../../../../../contract/jobs.ts";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { type QueryLike, QueryState } from "../../../components/ui/query-state.tsx";
import { JOB_ORDERS, type JobOrder, orderJobs, savings, savingsText } from "../../../lib/review.ts";
import { countedVersions, photoVersions } from "../../../lib/versions.ts";
import { useDeleteJobs } from "../data/delete-job.ts";
import { JobCard } from "./job-card.tsx";

/**
 * The job list titled "Processing Queue" (spec §2), newest first as the server sends it, with the
 * batch at a glance ("Saved 15.3 MB (56%) across 20 images · lowest score 85") and a choice of
 * order: lowest score, largest file, or only the images that were already optimised.
 */
export function ProcessingQueue(
  { jobs, query, renderCompare, renderLivePreview, onRecompress, recompressSettings }: {
    jobs: Job[];
    /** The read of the jobs, for its loading and error states. */
    query: QueryLike;
    renderCompare: (job: Job, onClose: () => void) => ReactNode;
    /** The Live preview panel of a completed job. */
    renderLivePreview?: (job: Job, onClose: () => void) => ReactNode;
    /** Re-compress a completed job with the current settings (stable, so cards stay memoised). */
    onRecompress?: (job: Job) => void;
    /** The current settings in words. */
    recompressSettings?: string;
  },
) {
  const remove = useDeleteJobs();
  const { mutate } = remove;
  const onDelete = useCallback((id: string) => mutate([id]), [mutate]);
  const [order, setOrder] = useState<JobOrder>("newest");
  // Each photo once (issue 24, item 4): its newest version, the earlier ones folded into its card.
  const photos = useMemo(() => photoVersions(jobs), [jobs]);
  const earlierOf = useMemo(
    () => new Map(photos.filter((p) => p.earlier.length > 0).map((p) => [p.job.id, p.earlier])),
    [photos],
  );
  const shown = useMemo(() => orderJobs(photos.map((p) => p.job), order), [photos, order]);
  const names = useMemo(() => new Map(jobs.map((j) => [j.id, j.filename])), [jobs]);
  const counted = useMemo(() => countedVersions(jobs), [jobs]);
  const done = counted.filter((j) => j.status === "completed").length;
  const summary = savingsText(savings(counted));
  return (
    <Card id="results" className="scroll-mt-20">
      <CardHeader className="space-y-2 p-3 pb-3 sm:p-4">
        <div className="flex items-baseline justify-between gap-2">
          <CardTitle>Processing Queue</CardTitle>
          {query.data !== undefined && (
            <p className="shrink-0 text-xs text-slate-500 sm:text-sm" data-testid="queue-summary">
              {done} of {photos.length} completed
            </p>
          )}
        </div>
        {(summary || photos.length > 1) && (
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm font-medium text-green-800" data-testid="review-summary">{summary}</p>
            {photos.length > 1 && (
              <div className="flex items-center gap-2 text-sm">
                <label htmlFor="job-order" className="text-slate-600">Show</label>
                <select
                  id="job-order"
                  value={order}
                  onChange={(e) => setOrder(e.target.value as JobOrder)}
                  className="h-8 rounded-md border border-slate-300 bg-white px-2 text-sm"
                >
                  {JOB_ORDERS.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
                </select>
              </div>
            )}
          </div>
        )}
      </CardHeader>
      <CardContent className="p-3 pt-0 sm:p-4 sm:pt-0">
        <QueryState
          query={query}
          what="your jobs"
          isEmpty={jobs.length === 0}
          empty={
            <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500">
              No jobs yet. Upload JPEG images to start compressing.
            </p>
          }
        >
          {shown.length === 0
            ? (
              <p className="rounded-lg border border-dashed border-slate-300 p-4 text-center text-sm text-slate-500">
                No image was already optimised.
              </p>
            )
            : (
              <ul className="space-y-3" aria-label="Jobs">
                {shown.map((job) => (
                  <JobCard
                    key={job.id}
                    job={job}
                    onDelete={onDelete}
                    renderCompare={renderCompare}
                    renderLivePreview={renderLivePreview}
                    onRecompress={onRecompress}
                    recompressSettings={recompressSettings}
                    sourceName={job.sourceJobId ? names.get(job.sourceJobId) ?? null : undefined}
                    earlier={earlierOf.get(job.id)}
                  />
                ))}
              </ul>
            )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
