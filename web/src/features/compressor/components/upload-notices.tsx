import type { ReactNode } from "react";
import { Link } from "wouter";
import type { RefusedFile } from "../../../../../contract/jobs.ts";
import { paths } from "../../../../../contract/routes.ts";
import { formatBytes } from "../../../../../contract/format-bytes.ts";
import { Button } from "../../../components/ui/button.tsx";
import type { FileRejection } from "../../../lib/validate-files.ts";
import type { UploadProgress } from "../data/upload-images.ts";
import { plural } from "../lib/use-upload-queue.ts";

/** The server's reason for a refused file, without the file name it may start with ("'a.jpg': …"). */
export function refusalReason(r: RefusedFile): string {
  const prefix = `'${r.filename}': `;
  return r.error.startsWith(prefix) ? r.error.slice(prefix.length) : r.error;
}

const resetTime = (iso: string) =>
  new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", timeZoneName: "short" });

/** A red notice with its Dismiss button. */
function Alert({ testId, onDismiss, children }: { testId: string; onDismiss: () => void; children: ReactNode }) {
  return (
    <div
      role="alert"
      data-testid={testId}
      className="flex items-start justify-between gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm"
    >
      {children}
      <Button variant="ghost" size="sm" className="shrink-0" onClick={onDismiss}>
        Dismiss
      </Button>
    </div>
  );
}

/** The files of the last pick that were not selected, each with its reason. */
export function RejectionNotice({ rejections, onDismiss }: { rejections: FileRejection[]; onDismiss: () => void }) {
  return (
    <Alert testId="upload-notices" onDismiss={onDismiss}>
      <ul className="min-w-0 space-y-0.5 text-red-700">
        {rejections.map((r, i) => (
          <li key={`${r.file.name}-${i}`} className="break-all">
            {r.file.name}: {r.message}
          </li>
        ))}
      </ul>
    </Alert>
  );
}

/** The files the server refused on their own, while it compressed the rest of their upload. */
export function RefusedNotice({ refused, onDismiss }: { refused: RefusedFile[]; onDismiss: () => void }) {
  return (
    <Alert testId="upload-refused" onDismiss={onDismiss}>
      <div className="min-w-0 text-red-700">
        <p className="font-medium">
          {plural(refused.length, "file was", "files were")}{" "}
          not compressed (the others were, and only they count toward your limit):
        </p>
        <ul className="space-y-0.5">
          {refused.map((r, i) => (
            <li key={`${r.filename}-${i}`} className="break-all" data-testid="refused-file">
              {r.filename}: {refusalReason(r)}
            </li>
          ))}
        </ul>
      </div>
    </Alert>
  );
}

/** Shown only while an upload runs (a slim bar, so the results below barely move). */
export function UploadProgressBar({ progress }: { progress: UploadProgress | null }) {
  const pct = progress && progress.total > 0 ? Math.min(100, Math.round((progress.sent / progress.total) * 100)) : 0;
  return (
    <div aria-live="polite" className={progress ? "" : "hidden"}>
      {progress && (
        <>
          <div
            role="progressbar"
            aria-label="Upload progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={pct}
            className="h-2 overflow-hidden rounded-full bg-slate-200"
          >
            <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${pct}%` }} />
          </div>
          <p className="mt-1 text-xs text-slate-600">
            Uploading… {pct}% ({formatBytes(progress.sent)} of {formatBytes(progress.total)})
          </p>
        </>
      )}
    </div>
  );
}

/** The daily limit, where the upload happens: what is left today, what waits, and the way past it. */
export function QuotaNotice(
  { used, limit, resetsAt, waiting }: { used: number; limit: number; resetsAt: string; waiting: number },
) {
  const left = Math.max(0, limit - used);
  return (
    <div
      role="status"
      data-testid="quota-notice"
      className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
    >
      <p className="min-w-0 flex-1 basis-64">
        {left === 0
          ? <span className="font-semibold">Daily limit reached: {used} of {limit} free compressions used today.</span>
          : (
            <span className="font-semibold">
              {plural(left, "free compression", "free compressions")} left today (of {limit}).
            </span>
          )} {waiting > 0 && `${plural(waiting, "file is", "files are")} over the limit and will not be sent. `}
        {`Resets at ${resetTime(resetsAt)}.`}
      </p>
      <Button asChild size="sm">
        <Link href={paths.subscribe}>Upgrade to Premium</Link>
      </Button>
    </div>
  );
}
