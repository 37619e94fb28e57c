import { memo, type ReactNode, useState } from "react";
import { type Job, type MetadataReport, resultFormat, sizeReduction } from "../../../../../contract/jobs.ts";
import { shownScore } from "../../../../../contract/score-words.ts";
import { STATED_RETENTION } from "../../../../../contract/storage.ts";
import { Button } from "../../../components/ui/button.tsx";
import { LivePreviewButton } from "../../../components/live-preview-button.tsx";
import { EarlierVersions } from "./earlier-versions.tsx";
import { ScoreWordLink, TONE_TEXT } from "../../../components/score-word.tsx";
import { cn } from "../../../lib/cn.ts";
import { formatBytes } from "../../../../../contract/format-bytes.ts";
import { jobWarning } from "../../../lib/review.ts";
import { previewUrl } from "@web-api/endpoints.ts";
import { formatChoiceText, FORMATS } from "../../../../../contract/formats.ts";
import { downloadJob } from "../data/download-job.ts";
import { isDownloadable } from "../lib/job-state.ts";
import { WebSetFiles, WebSetSummary } from "./web-set-card.tsx";

const STATUS_LABELS: Record<Job["status"], string> = {
  pending: "Queued",
  processing: "Processing",
  completed: "Completed",
  error: "Error",
};

const STATUS_STYLES: Record<Job["status"], string> = {
  pending: "bg-slate-100 text-slate-700",
  processing: "bg-blue-100 text-blue-800",
  completed: "bg-green-100 text-green-800",
  error: "bg-red-100 text-red-800",
};

export interface JobCardProps {
  job: Job;
  onDelete: (id: string) => void;
  /** The Compare panel, supplied by the page (features do not import each other). */
  renderCompare: (job: Job, onClose: () => void) => ReactNode;
  /** The Live preview panel (issue 24, item 1), supplied by the page likewise. */
  renderLivePreview?: (job: Job, onClose: () => void) => ReactNode;
  /** Re-compress the original still held with the settings now in the settings panel. */
  onRecompress?: (job: Job) => void;
  /** Those settings in words, for the button's title. */
  recompressSettings?: string;
  /** On a re-compression: the file name of the job it came from (null when that job was deleted). */
  sourceName?: string | null;
  /** The photo's earlier versions, newest first (issue 24, item 4); this card shows its newest. */
  earlier?: Job[];
}

/**
 * One job (spec §4). The status area has a fixed height so progress updates
 * never move the cards below; memoised, and the query's structural sharing
 * keeps unchanged jobs the same object, so a poll re-renders only changed cards.
 */
export const JobCard = memo(function JobCard(
  { job, onDelete, renderCompare, renderLivePreview, onRecompress, recompressSettings, sourceName, earlier }:
    JobCardProps,
) {
  const [comparing, setComparing] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [thumbFailed, setThumbFailed] = useState(false);
  const error = job.status === "error";
  const canDownload = isDownloadable(job);
  return (
    <li
      data-testid="job-card"
      data-status={job.status}
      data-score-pending={job.scorePending || undefined}
      data-job-id={job.id}
      className={cn(
        "rounded-xl border bg-white p-3 shadow-sm sm:p-4",
        // Off-screen cards skip rendering; not while comparing (the phone's full-screen compare is fixed).
        !comparing && !previewing && "[contain-intrinsic-size:auto_120px] [content-visibility:auto]",
        error ? "border-red-300 bg-red-50" : "border-slate-200",
      )}
    >
      {/* Phones: the actions go under the details; wider: to their right, so a card stays short. */}
      <div className="grid grid-cols-[3.5rem_minmax(0,1fr)] gap-x-3 gap-y-2 sm:grid-cols-[3.5rem_minmax(0,1fr)_auto]">
        <div className="h-14 w-14 shrink-0 overflow-hidden rounded-md bg-slate-100">
          {/* The server makes the thumbnail while the image is processed; until then the tile stays grey. */}
          {!thumbFailed && job.status === "completed" && !job.expired && (
            <img
              src={previewUrl(job.id, "thumb")}
              alt=""
              width={56}
              height={56}
              loading="lazy"
              decoding="async"
              className="h-14 w-14 object-cover"
              onError={() => setThumbFailed(true)}
            />
          )}
        </div>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="min-w-0 max-w-full truncate text-sm font-medium" title={job.filename}>{job.filename}</h3>
            <span
              className={cn("rounded-full px-2 py-0.5 text-xs font-medium", STATUS_STYLES[job.status])}
              data-testid="job-status"
            >
              {STATUS_LABELS[job.status]}
            </span>
          </div>
          {job.sourceJobId && (
            <p className="text-xs font-medium text-brand-700" data-testid="job-source">
              Re-compressed from {sourceName ?? "an earlier upload"}
            </p>
          )}
          <p className="text-xs text-slate-500">
            {formatBytes(job.originalSize)}
            {job.width && job.height ? ` · ${job.width}×${job.height}` : ""}
          </p>
          <div
            // Pending and processing keep one height, so progress never moves the cards below.
            className={cn("mt-1 text-sm", !job.completedAt && !error && "min-h-10")}
            aria-live={job.status === "processing" ? "off" : "polite"}
          >
            <StatusArea job={job} />
          </div>
          {job.status === "completed" && <CompletedDetails job={job} />}
          {earlier && earlier.length > 0 && <EarlierVersions jobs={earlier} />}
        </div>
        <div className="col-span-2 flex flex-wrap items-center gap-2 sm:col-span-1 sm:justify-end sm:self-start">
          {/* A web set's result is a ZIP of many files: there is no one image to compare or preview. */}
          {job.status === "completed" && !job.webSet && (
            <Button
              size="sm"
              variant="secondary"
              aria-expanded={comparing}
              aria-label={`${comparing ? "Hide compare" : "Compare"} ${job.filename}`}
              onClick={() => setComparing(!comparing)}
              disabled={job.expired}
            >
              {comparing ? "Hide compare" : "Compare"}
            </Button>
          )}
          {job.status === "completed" && !job.webSet && renderLivePreview && (
            <LivePreviewButton
              filename={job.filename}
              open={previewing}
              onToggle={() => setPreviewing(!previewing)}
              disabled={job.expired}
            />
          )}
          {job.status === "completed" && (
            <Button
              size="sm"
              aria-label={`Download ${job.filename}`}
              onClick={() => void downloadJob(job)}
              disabled={!canDownload}
            >
              Download
            </Button>
          )}
          {job.status === "completed" && onRecompress && (
            <Button
              size="sm"
              variant="secondary"
              aria-label={`Re-compress ${job.filename} with current settings`}
              title={job.expired
                ? `The original has been deleted (images are kept for ${STATED_RETENTION} after compression); upload it again to re-compress it`
                : `Re-compress with current settings${recompressSettings ? `: ${recompressSettings}` : ""}`}
              onClick={() => onRecompress(job)}
              disabled={job.expired}
            >
              Re-compress
            </Button>
          )}
          {job.expired && <span className="text-xs text-slate-500">The result was deleted</span>}
          <Button
            size="sm"
            variant="ghost"
            className="text-slate-500 hover:text-red-700 max-sm:ml-auto"
            aria-label={`Delete ${job.filename}`}
            onClick={() => onDelete(job.id)}
          >
            Delete
          </Button>
        </div>
      </div>
      {job.status === "completed" && job.webSet && <WebSetFiles job={{ ...job, webSet: job.webSet }} />}
      {comparing && job.status === "completed" && !job.expired && (
        <div className="mt-3">{renderCompare(job, () => setComparing(false))}</div>
      )}
      {previewing && renderLivePreview && job.status === "completed" && !job.expired && (
        <div className="mt-3">{renderLivePreview(job, () => setPreviewing(false))}</div>
      )}
    </li>
  );
});

/** The score measured against the original, with its word (contract/score-words.ts), else the quality used. */
function MeasuredScore({ job }: { job: Job }) {
  const score = job.scores?.overall;
  // JPEG, the format of every upload, goes unsaid.
  const written = resultFormat(job);
  const format = written === "jpeg" ? "" : ` · ${FORMATS[written].label}`;
  if (job.scorePending) {
    return (
      <>
        <span className="text-slate-500" data-testid="job-score-pending">Measuring quality…</span>
        {" · "}quality {job.quality}
        {format}
      </>
    );
  }
  if (typeof score !== "number") return <>Quality {job.quality}{format}</>;
  const shown = shownScore(score);
  return (
    <>
      <span className={cn("font-medium", TONE_TEXT[shown.tone])} data-testid="job-score" data-tone={shown.tone}>
        Score {shown.value} · <ScoreWordLink score={shown} />
      </span>
      {" · "}quality {job.quality}
      {format}
    </>
  );
}

/** "JPEG 412 KB → JPEG XL 338 KB, −18%, same pixels": a JPEG XL result and the JPEG it holds. */
export const heldText = (held: number, size: number): string =>
  `JPEG ${formatBytes(held)} → JPEG XL ${formatBytes(size)}, −${
    Math.round((1 - size / held) * 100)
  }%, same pixels (restorable)`;

/** What happened to the metadata: removed and kept, as the server reports it. */
export function metadataText(m: MetadataReport | null): string | null {
  if (!m) return null;
  if (m.found.length === 0) return "Metadata: none in the original";
  const parts = [];
  if (m.removed.length > 0) parts.push(`removed ${m.removed.join(", ")}`);
  if (m.kept.length > 0) parts.push(`kept ${m.kept.join(", ")}`);
  return `Metadata: ${parts.join("; ")}`;
}

/** A completed job's metadata report and, when its result needs a look, the amber warning. */
function CompletedDetails({ job }: { job: Job }) {
  const metadata = metadataText(job.metadata);
  const warning = jobWarning(job);
  return (
    <>
      {job.heldSize !== null && job.compressedSize !== null && (
        <p className="text-xs text-slate-600" data-testid="job-held">
          {heldText(job.heldSize, job.compressedSize)}
        </p>
      )}
      {job.formatChoice && job.compressedSize !== null && (
        <p className="text-xs text-slate-600" data-testid="job-format-choice">
          {formatChoiceText(job.formatChoice, job.compressedSize)}
        </p>
      )}
      {metadata && <p className="text-xs text-slate-500" data-testid="job-metadata">{metadata}</p>}
      {warning && (
        <p
          className="mt-1 rounded-md border border-amber-200 bg-amber-50 px-2 py-1 text-xs text-amber-900"
          data-testid="job-warning"
        >
          <span aria-hidden="true">⚠</span> {warning}
        </p>
      )}
    </>
  );
}

function StatusArea({ job }: { job: Job }) {
  switch (job.status) {
    case "pending":
      return <p className="text-slate-500">Waiting in the queue</p>;
    case "processing":
      return (
        <div>
          <div
            role="progressbar"
            aria-label={`Compressing ${job.filename}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={job.progress}
            className="h-2 overflow-hidden rounded-full bg-slate-200"
          >
            <div
              className="h-full bg-brand-600 transition-[width] duration-300"
              style={{ width: `${job.progress}%` }}
            />
          </div>
          <p className="mt-1 text-xs tabular-nums text-slate-600" data-testid="job-progress">{job.progress}%</p>
        </div>
      );
    case "completed": {
      if (job.webSet) return <WebSetSummary job={{ ...job, webSet: job.webSet }} />;
      const compressed = job.compressedSize ?? job.originalSize;
      const saved = sizeReduction(job.originalSize, compressed);
      return (
        <div className="text-sm">
          <p>
            <span data-testid="job-compressed-size">{formatBytes(compressed)}</span>{" "}
            <span className="font-semibold text-green-700" data-testid="job-savings">
              {job.keptOriginal ? "0% saved" : `${saved}% saved`}
            </span>
          </p>
          <p className="text-xs text-slate-500">
            {job.keptOriginal
              ? <span data-testid="job-note">{job.note ?? "already optimised"}: the original was kept</span>
              : <MeasuredScore job={job} />}
          </p>
        </div>
      );
    }
    case "error":
      return (
        <p
          role="alert"
          className="line-clamp-2 text-sm text-red-700"
          data-testid="job-error"
          title={job.errorMessage ?? ""}
        >
          {job.errorMessage ?? "This image could not be compressed"}
        </p>
      );
  }
}
