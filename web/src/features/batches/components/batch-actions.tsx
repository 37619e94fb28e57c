import { useState } from "react";
import type { Job } from "../../../../../contract/jobs.ts";
import { Button } from "../../../components/ui/button.tsx";
import { countedVersions, photosWithVersions } from "../../../lib/versions.ts";

export interface BatchActionsProps {
  jobs: Job[];
  /**
   * Downloads each photo's latest result as one ZIP (issue 15, item 6), or with `"all"` every version
   * still held, named by its settings (issue 24, item 4).
   */
  downloadAll: (versions?: "latest" | "all") => void;
  /** The ZIP is being fetched. */
  downloading: boolean;
  /** Deletes jobs, one request per job (spec §7). */
  deleteJobs: (ids: string[]) => void;
  deleting: boolean;
}

const images = (n: number) => `${n} image${n === 1 ? "" : "s"}`;

/**
 * Spec §7's batch actions, named for what they do: Download All saves one ZIP of the completed
 * results (named by the server, `squeezejpeg-YYYY-MM-DD-N-images.zip`; per-file downloads stay on each card); "Remove completed" (the spec's New Batch) deletes only the completed jobs, work in
 * progress stays; "Delete all jobs" (the spec's Clear All) deletes every job and its results,
 * after asking once, since the results cannot be brought back.
 */
export function BatchActions({ jobs, downloadAll, downloading, deleteJobs, deleting }: BatchActionsProps) {
  const [confirming, setConfirming] = useState(false);
  // Each photo once, at the version the ZIP holds (issue 24, item 4); removing and deleting take every version.
  const photos = countedVersions(jobs);
  const ready = photos.filter((j) => j.status === "completed" && !j.expired);
  const completed = jobs.filter((j) => j.status === "completed");
  const completedPhotos = photos.filter((j) => j.status === "completed").length;
  const versioned = photosWithVersions(jobs);

  return (
    <div
      className="space-y-2 rounded-xl border border-slate-200 bg-white p-3"
      aria-label="Batch actions"
      role="group"
    >
      <div className="flex flex-wrap items-center gap-2">
        <Button
          onClick={() => downloadAll()}
          disabled={ready.length === 0 || downloading}
          title={`One ZIP of the ${images(ready.length)} ready to download, each at its latest version`}
        >
          {downloading ? "Preparing ZIP..." : `Download All (${ready.length})`}
        </Button>
        {versioned > 0 && (
          <Button
            variant="secondary"
            onClick={() => downloadAll("all")}
            disabled={downloading}
            title="One ZIP of every version still held, each named by its settings (beach.q70.jpg)"
          >
            All versions
          </Button>
        )}
        <Button
          variant="secondary"
          onClick={() => deleteJobs(completed.map((j) => j.id))}
          disabled={completed.length === 0 || deleting}
          title="Delete the completed jobs and their results; unfinished ones stay"
        >
          Remove completed ({completedPhotos})
        </Button>
        <Button
          variant="ghost"
          className="text-red-700"
          aria-expanded={confirming}
          onClick={() => setConfirming(true)}
          disabled={jobs.length === 0 || deleting || confirming}
        >
          Delete all jobs
        </Button>
      </div>
      {confirming && jobs.length > 0 && (
        <div
          role="alertdialog"
          aria-label="Confirm deleting all jobs"
          className="flex flex-wrap items-center gap-2 rounded-md bg-red-50 p-2 text-sm text-red-900"
        >
          <p className="flex-1">
            Delete all {images(photos.length)} and their results? Unfinished ones stop; this cannot be undone.
          </p>
          <Button
            variant="destructive"
            size="sm"
            autoFocus
            onClick={() => {
              deleteJobs(jobs.map((j) => j.id));
              setConfirming(false);
            }}
          >
            Delete {images(photos.length)}
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setConfirming(false)}>Keep them</Button>
        </div>
      )}
    </div>
  );
}
