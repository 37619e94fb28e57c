import { memo } from "react";
import type { Batch } from "../../../../../contract/jobs.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { type QueryLike, QueryState } from "../../../components/ui/query-state.tsx";
import { cn } from "../../../lib/cn.ts";
import { formatBytes } from "../../../../../contract/format-bytes.ts";
import { photoOf, photosWithVersions } from "../../../lib/versions.ts";
import { encodersText, savings, savingsText } from "../../../lib/review.ts";
import { batchZipUrl } from "@web-api/endpoints.ts";
import { type BatchAction, useBatchAction } from "../data/batch-actions.ts";
import { batchCounts, canCancel, canPause, canResume } from "../lib/batch-rules.ts";

const STATUS_STYLES: Record<Batch["status"], string> = {
  pending: "bg-slate-100 text-slate-700",
  processing: "bg-blue-100 text-blue-800",
  paused: "bg-amber-100 text-amber-800",
  completed: "bg-green-100 text-green-800",
  cancelled: "bg-slate-200 text-slate-600",
  error: "bg-red-100 text-red-800",
};

const STATUS_LABELS: Record<Batch["status"], string> = {
  pending: "Pending",
  processing: "Processing",
  paused: "Paused",
  completed: "Completed",
  cancelled: "Cancelled",
  error: "Error",
};

/**
 * Batch queue status (spec §2): each batch's progress, its savings at a glance and its
 * pause/resume/cancel and ZIP actions. A batch whose jobs were all deleted is not shown (the
 * server keeps the row; there is nothing left in it to act on or download).
 */
export function BatchPanel(
  { batches: all, query, onRecompress, recompressSettings, recompressingId }: {
    batches: Batch[];
    /** The read of the batches, for its loading and error states. */
    query: QueryLike;
    /** Re-compress the batch's completed images with the current settings, as a new batch. */
    onRecompress?: (batch: Batch) => void;
    /** The current settings in words. */
    recompressSettings?: string;
    /** The batch whose re-compression is being sent. */
    recompressingId?: string;
  },
) {
  const batches = all.filter((b) => b.jobs.length > 0);
  // A photo's re-compressions land in later batches; its batch's ZIP holds them too (issue 24, item 4).
  const allJobs = all.flatMap((b) => b.jobs);
  const hasVersions = (b: Batch) => {
    const photos = new Set(b.jobs.map(photoOf));
    return photosWithVersions(allJobs.filter((j) => photos.has(photoOf(j)))) > 0;
  };
  const action = useBatchAction();
  const { mutate } = action;
  const busyId = action.isPending ? action.variables?.id : undefined;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Batch Queue</CardTitle>
      </CardHeader>
      <CardContent>
        <QueryState
          query={query}
          what="your batches"
          isEmpty={batches.length === 0}
          empty={<p className="text-sm text-slate-500">Each upload becomes a batch; its progress shows here.</p>}
        >
          <ul className="max-h-96 space-y-3 overflow-y-auto" aria-label="Batches">
            {batches.map((b) => (
              <BatchRow
                key={b.id}
                batch={b}
                versioned={hasVersions(b)}
                busy={busyId === b.id}
                run={(a) => mutate({ id: b.id, action: a })}
                onRecompress={onRecompress}
                recompressSettings={recompressSettings}
                recompressing={recompressingId === b.id}
              />
            ))}
          </ul>
        </QueryState>
      </CardContent>
    </Card>
  );
}

const BatchRow = memo(function BatchRow(
  { batch, versioned, busy, run, onRecompress, recompressSettings, recompressing }: {
    batch: Batch;
    /** A photo of this batch has more than one version held: the ZIP can offer them all. */
    versioned: boolean;
    busy: boolean;
    run: (a: BatchAction) => void;
    onRecompress?: (batch: Batch) => void;
    recompressSettings?: string;
    recompressing: boolean;
  },
) {
  const c = batchCounts(batch);
  const encoders = encodersText(batch.jobs);
  return (
    <li className="rounded-lg border border-slate-200 p-3" data-testid="batch-row" data-status={batch.status}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="truncate text-sm font-medium">{batch.name}</p>
          <p className="text-xs text-slate-500">
            {batch.totalFiles} file{batch.totalFiles === 1 ? "" : "s"} · {formatBytes(batch.totalOriginalSize)}
          </p>
        </div>
        <span
          className={cn("rounded-full px-2 py-0.5 text-xs font-medium", STATUS_STYLES[batch.status])}
          data-testid="batch-status"
        >
          {STATUS_LABELS[batch.status]}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={`${batch.name} progress`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={c.percent}
        className="mt-2 h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full bg-brand-600 transition-[width] duration-300" style={{ width: `${c.percent}%` }} />
      </div>
      <p className="mt-1 text-xs text-slate-600" data-testid="batch-progress">
        {c.completed} of {c.total} completed{c.failed > 0 ? `, ${c.failed} failed` : ""}
      </p>
      {c.completed > 0 && (
        <p className="text-xs font-medium text-green-800" data-testid="batch-savings">
          {savingsText(savings(batch.jobs))}
        </p>
      )}
      {encoders && <p className="text-xs text-slate-600" data-testid="batch-encoders">{encoders}</p>}
      <div className="mt-2 flex min-h-8 flex-wrap gap-2">
        {canPause(batch.status) && (
          <Button
            size="sm"
            variant="secondary"
            disabled={busy}
            onClick={() => run("pause")}
            aria-label={`Pause ${batch.name}`}
          >
            Pause
          </Button>
        )}
        {canResume(batch.status) && (
          <Button
            size="sm"
            disabled={busy}
            onClick={() => run("resume")}
            aria-label={`Resume ${batch.name}`}
          >
            Resume
          </Button>
        )}
        {canCancel(batch.status) && (
          <Button
            size="sm"
            variant="ghost"
            className="text-red-700"
            disabled={busy}
            onClick={() => run("cancel")}
            aria-label={`Cancel ${batch.name}`}
          >
            Cancel
          </Button>
        )}
        {c.completed > 0 && onRecompress && (
          <Button
            size="sm"
            variant="secondary"
            disabled={recompressing}
            onClick={() => onRecompress(batch)}
            aria-label={`Re-compress batch ${batch.name} with current settings`}
            title={`Re-compress the completed images with current settings${
              recompressSettings ? `: ${recompressSettings}` : ""
            }`}
          >
            {recompressing ? "Re-compressing..." : "Re-compress"}
          </Button>
        )}
        {c.completed > 0 && (
          <Button asChild size="sm" variant="secondary">
            <a href={batchZipUrl(batch.id)} download aria-label={`Download ZIP of ${batch.name}`}>Download ZIP</a>
          </Button>
        )}
        {c.completed > 0 && versioned && (
          <Button asChild size="sm" variant="secondary">
            <a
              href={batchZipUrl(batch.id, "all")}
              download
              aria-label={`All versions of ${batch.name} as a ZIP`}
              title="One ZIP of every version still held, each named by its settings (beach.q70.jpg)"
            >
              All versions
            </a>
          </Button>
        )}
      </div>
    </li>
  );
});
