import type { Job } from "../../../../../contract/jobs.ts";
import { settingsTag } from "../../../../../contract/file-names.ts";
import { downloadJob } from "../data/download-job.ts";
import { versionDownloadName } from "../lib/job-state.ts";
import { formatBytes } from "../../../../../contract/format-bytes.ts";

/** A version's settings in a few characters, as its "All versions" ZIP name has them (`q70`, `auto`). */
export const versionLabel = (job: Job) => settingsTag(job.settings);

/**
 * A photo's earlier versions (issue 24, item 4), folded under its newest one: each with its settings,
 * its size and a download link while its result is still held.
 */
export function EarlierVersions({ jobs }: { jobs: Job[] }) {
  return (
    <details className="mt-1 text-xs text-slate-600" data-testid="earlier-versions">
      <summary className="cursor-pointer select-none">
        Earlier versions ({jobs.length})
      </summary>
      <ul className="mt-1 space-y-0.5">
        {jobs.map((job) => (
          <li key={job.id} className="flex flex-wrap items-center gap-x-2" data-testid="earlier-version">
            <span className="font-mono">{versionLabel(job)}</span>
            {job.status === "completed" && job.compressedSize !== null && <span>{formatBytes(job.compressedSize)}
            </span>}
            {job.status === "completed" && !job.expired
              ? (
                <button
                  type="button"
                  className="text-brand-700 underline"
                  aria-label={`Download ${versionDownloadName(job)}`}
                  onClick={() => void downloadJob(job, versionDownloadName(job))}
                >
                  Download
                </button>
              )
              : <span className="text-slate-400">{job.status === "completed" ? "deleted" : job.status}</span>}
          </li>
        ))}
      </ul>
    </details>
  );
}
