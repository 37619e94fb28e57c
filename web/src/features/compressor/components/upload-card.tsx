import type { ReactNode } from "react";
import { Link } from "wouter";
import { paths } from "../../../../../contract/routes.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent } from "../../../components/ui/card.tsx";
import { formatBytes } from "../../../../../contract/format-bytes.ts";
import { useWindowDrop } from "../../../lib/use-window-drop.ts";
import { plural, type UploadQueueOptions, useUploadQueue } from "../lib/use-upload-queue.ts";
import { Dropzone } from "./dropzone.tsx";
import { SelectedFiles } from "./selected-files.tsx";
import { QuotaNotice, RefusedNotice, RejectionNotice, UploadProgressBar } from "./upload-notices.tsx";

/**
 * The dropzone, the selected list ("{count} / {max}", total size), the settings summary
 * (`settingsSlot`) and the upload with its progress. Files dropped anywhere on the page or
 * picked start compressing at once with the current settings (the upload queue: `useUploadQueue`);
 * what is past today's limit stays in the selected list, marked, and is not sent.
 * Problems are listed once each, inline, with their figures.
 */
export function UploadCard(
  { settingsSlot, ...options }: UploadQueueOptions & { settingsSlot?: ReactNode },
) {
  const { limits, settingsReady, usage, files, setFiles } = options;
  const queue = useUploadQueue(options);
  const { dragging } = useWindowDrop(queue.addFiles);
  const { pending, sendable, waiting } = queue;
  const total = files.reduce((sum, f) => sum + f.size, 0);
  return (
    <Card id="upload" aria-label="Upload images" role="region">
      <CardContent className="space-y-3 p-3 pt-3 sm:p-4">
        <Dropzone
          limits={limits}
          selectedCount={files.length + waiting.length}
          pageDrag={dragging}
          onFiles={queue.addFiles}
        />
        {queue.rejections.length > 0 && (
          <RejectionNotice rejections={queue.rejections} onDismiss={queue.dismissRejections} />
        )}
        {queue.refused.length > 0 && <RefusedNotice refused={queue.refused} onDismiss={queue.dismissRefused} />}
        {files.length > 0 && (
          <SelectedFiles files={files} remaining={queue.remaining} disabled={pending} setFiles={setFiles} />
        )}
        {waiting.length > 0 && (
          <p role="status" className="text-sm text-slate-600" data-testid="upload-waiting">
            {plural(waiting.length, "image starts", "images start")} compressing as soon as{" "}
            {settingsReady ? "the upload before ends" : "your settings have loaded"}.
          </p>
        )}
        {settingsSlot}
        {usage && usage.limit !== null && (queue.remaining === 0 || sendable < files.length) && (
          <QuotaNotice
            used={usage.used}
            limit={usage.limit}
            resetsAt={usage.resetsAt}
            waiting={files.length - sendable}
          />
        )}
        <div className="flex flex-wrap items-center gap-2">
          {/* Picks start at once: the button is for what stayed selected (over the quota, or refused). */}
          {(files.length > 0 || pending) && (
            <Button onClick={queue.sendSelection} disabled={sendable === 0 || pending} data-testid="upload-button">
              {pending
                ? "Uploading..."
                : sendable < files.length
                ? `Compress ${sendable} of ${files.length}`
                : `Upload ${files.length} image${files.length === 1 ? "" : "s"}`}
            </Button>
          )}
          {sendable < files.length && !pending && (
            <>
              <span aria-hidden="true" className="text-slate-400">·</span>
              <Link
                href={paths.subscribe}
                className="text-sm font-medium text-brand-700 underline"
                data-testid="upgrade-for-all"
              >
                Upgrade for all
              </Link>
            </>
          )}
          {files.length > 0 && (
            <Button variant="secondary" onClick={queue.clearSelection} disabled={pending}>
              Clear selection
            </Button>
          )}
          <p className="ml-auto text-sm text-slate-600">
            <span data-testid="selected-count">{files.length} / {limits.maxFiles}</span>
            <span aria-hidden="true" className="mx-1">·</span>
            <span data-testid="selected-size">{formatBytes(total)}</span> selected
          </p>
        </div>
        {queue.failure && !pending && (
          <p role="alert" className="text-sm font-medium text-red-700" data-testid="upload-error">{queue.failure}</p>
        )}
        <UploadProgressBar progress={queue.progress} />
      </CardContent>
    </Card>
  );
}
