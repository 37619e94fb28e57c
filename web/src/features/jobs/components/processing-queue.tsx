import { type ReactNode, useCallback } from "react";
import type { Job } from "../../../../../contract/jobs.ts";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { useDeleteJobs } from "../api/delete-job.ts";
import { JobCard } from "./job-card.tsx";

/** The job list titled "Processing Queue" (spec §2), newest first as the server sends it. */
export function ProcessingQueue(
  { jobs, isLoading, renderCompare }: { jobs: Job[]; isLoading: boolean; renderCompare: (job: Job) => ReactNode },
) {
  const remove = useDeleteJobs();
  const { mutate } = remove;
  const onDelete = useCallback((id: string) => mutate([id]), [mutate]);
  const done = jobs.filter((j) => j.status === "completed").length;
  return (
    <Card id="results" className="scroll-mt-20">
      <CardHeader className="flex flex-row items-baseline justify-between gap-2 p-4 pb-3">
        <CardTitle>Processing Queue</CardTitle>
        <p className="text-sm text-slate-500" data-testid="queue-summary">
          {done} of {jobs.length} completed
        </p>
      </CardHeader>
      <CardContent className="p-3 pt-0 sm:p-4 sm:pt-0">
        {jobs.length === 0
          ? (
            <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500">
              {isLoading ? "Loading your jobs…" : "No jobs yet. Upload JPEG images to start compressing."}
            </p>
          )
          : (
            <ul className="space-y-3" aria-label="Jobs">
              {jobs.map((job) => <JobCard key={job.id} job={job} onDelete={onDelete} renderCompare={renderCompare} />)}
            </ul>
          )}
      </CardContent>
    </Card>
  );
}
