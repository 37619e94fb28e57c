import { useState } from "react";
import type { Job } from "../../../../../contract/jobs.ts";
import { Button } from "../../../components/ui/button.tsx";

export interface BatchActionsProps {
  jobs: Job[];
  /** Downloads the given jobs one at a time (500 ms apart), reporting how many are done. */
  downloadAll: (jobs: Job[], onProgress: (done: number) => void) => Promise<void>;
  /** Deletes jobs, one request per job (spec §7). */
  deleteJobs: (ids: string[]) => void;
  deleting: boolean;
}

/**
 * Spec §7: Download All fetches completed jobs one at a time; Clear All deletes
 * every job; New Batch removes only the completed ones (work in progress stays).
 */
export function BatchActions({ jobs, downloadAll, deleteJobs, deleting }: BatchActionsProps) {
  const [downloading, setDownloading] = useState<{ done: number; total: number } | null>(null);
  const ready = jobs.filter((j) => j.status === "completed" && !j.expired);
  const completed = jobs.filter((j) => j.status === "completed");

  const onDownloadAll = async () => {
    setDownloading({ done: 0, total: ready.length });
    try {
      await downloadAll(ready, (done) => setDownloading({ done, total: ready.length }));
    } finally {
      setDownloading(null);
    }
  };

  return (
    <div
      className="flex flex-wrap items-center gap-2 rounded-xl border border-slate-200 bg-white p-3"
      aria-label="Batch actions"
      role="group"
    >
      <Button onClick={() => void onDownloadAll()} disabled={ready.length === 0 || downloading !== null}>
        {downloading ? `Downloading ${downloading.done} of ${downloading.total}...` : `Download All (${ready.length})`}
      </Button>
      <Button
        variant="secondary"
        onClick={() => deleteJobs(completed.map((j) => j.id))}
        disabled={completed.length === 0 || deleting}
        title="Remove completed jobs and start a new batch"
      >
        New Batch
      </Button>
      <Button
        variant="ghost"
        className="text-red-700"
        onClick={() => deleteJobs(jobs.map((j) => j.id))}
        disabled={jobs.length === 0 || deleting}
      >
        Clear All
      </Button>
    </div>
  );
}
