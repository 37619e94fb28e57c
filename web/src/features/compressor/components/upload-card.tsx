import { memo, type ReactNode, useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import type { RefusedFile, Usage } from "../../../../../contract/jobs.ts";
import { paths } from "../../../../../contract/routes.ts";
import { ApiRequestError } from "@web-api/client.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent } from "../../../components/ui/card.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { cn } from "../../../lib/cn.ts";
import { formatBytes } from "../../../../../contract/format-bytes.ts";
import { useWindowDrop } from "../../../lib/use-window-drop.ts";
import { type FileRejection, limitLabel, selectFiles, type UploadLimits } from "../../../lib/validate-files.ts";
import type { SavedSettings } from "../data/settings.ts";
import { type UploadProgress, useUploadImages } from "../data/upload-images.ts";
import { settingsSummary } from "../lib/settings-summary.ts";
import { usePendingUpload } from "../lib/use-pending-upload.ts";
import { Dropzone } from "./dropzone.tsx";

/** Spec §8: the server's message, "Upload failed" when it sent none, or the generic text. */
export function uploadErrorText(err: unknown): string {
  if (err instanceof ApiRequestError) return err.serverMessage ?? "Upload failed";
  if (err instanceof Error) return err.message;
  return "An error occurred during upload";
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The server's reason for a refused file, without the file name it may start with ("'a.jpg': …"). */
export function refusalReason(r: RefusedFile): string {
  const prefix = `'${r.filename}': `;
  return r.error.startsWith(prefix) ? r.error.slice(prefix.length) : r.error;
}

/** How many more images today's quota takes: `Infinity` without a limit (Premium) or before usage loads. */
export const remainingToday = (usage: Usage | undefined): number =>
  !usage || usage.limit === null ? Infinity : Math.max(0, usage.limit - usage.used);

const resetTime = (iso: string) =>
  new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", timeZoneName: "short" });

/** Where files to send came from: picked or dropped here, the landing page, or the selected list's button. */
type SendFrom = "picked" | "landing" | "selection";

/**
 * The dropzone, the selected list ("{count} / {max}", total size), the settings summary
 * (`settingsSlot`) and the upload with its progress. Files dropped anywhere on the page or
 * picked start compressing at once with the current settings (issue 24 item 3), as files
 * picked on the landing page before sign-up do once the saved settings are known; the quota
 * comes first: what is past today's limit stays in the selected list, marked, and is not sent.
 * Problems are listed once each, inline, with their figures.
 */
export function UploadCard(
  { limits, settings, settingsReady, usage, allowTarget, files, setFiles, settingsSlot, onUploaded }: {
    limits: UploadLimits;
    settings: SavedSettings;
    /** The user's remembered settings and usage have loaded (the landing page's files wait for them). */
    settingsReady: boolean;
    /** Today's usage (issue 15, item 3): only what fits the daily quota is sent. */
    usage: Usage | undefined;
    allowTarget: boolean;
    files: File[];
    setFiles: (update: (prev: File[]) => File[]) => void;
    settingsSlot?: ReactNode;
    /** After the server accepted an upload (the page shows the results). */
    onUploaded?: () => void;
  },
) {
  const upload = useUploadImages();
  const [rejections, setRejections] = useState<FileRejection[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  /** Files the server refused on their own (the rest of their upload was accepted). */
  const [refused, setRefused] = useState<RefusedFile[]>([]);
  /** Picks that wait for the saved settings and usage, or for the upload before them to end. */
  const [waiting, setWaiting] = useState<File[]>([]);
  /** Set from the moment an upload is sent (before `isPending` renders), so two drops never race the quota. */
  const busy = useRef(false);
  const limit = limitLabel(limits.maxFileBytes);
  const remaining = remainingToday(usage);
  /** Files past today's quota: they stay selected, marked, and are not sent. */
  const sendable = Math.min(files.length, remaining);

  /** Sorts files into the selection; the spec's notices as toasts, each refused file inline. */
  const sort = (picked: File[], alreadySelected: number): File[] => {
    const result = selectFiles(picked, alreadySelected, limits);
    if (result.invalidType > 0) {
      toast({
        title: "Invalid file types detected",
        description: `${result.invalidType} file(s) are not JPEG images and will be skipped`,
        variant: "destructive",
      });
    }
    if (result.tooLarge > 0) {
      toast({
        title: "Large files detected",
        description: `${result.tooLarge} file(s) exceed ${limit} limit and will be skipped`,
        variant: "destructive",
      });
    }
    setRejections(result.rejections);
    if (result.accepted.length === 0) {
      toast({
        title: "No valid files",
        description: `Please select JPEG images under ${limit}`,
        variant: "destructive",
      });
    } else if (result.accepted.length < picked.length) {
      toast({
        title: "Some files processed",
        description: `${result.accepted.length} of ${picked.length} files will be uploaded`,
      });
    }
    return result.accepted;
  };

  /** Dropped or picked: valid files start compressing at once (or as soon as the settings are known). */
  const addFiles = (picked: File[]) => {
    if (picked.length === 0) return;
    const accepted = sort(picked, files.length + waiting.length);
    if (accepted.length === 0) return;
    if (!settingsReady || busy.current) setWaiting((prev) => [...prev, ...accepted]);
    else send(accepted, "picked");
  };
  const { dragging } = useWindowDrop(addFiles);

  /** Sends what fits today's quota; the rest stays selected with a note (nothing is sent to be refused). */
  const send = (picked: File[], from: SendFrom) => {
    const fresh = from !== "selection";
    const batch = picked.slice(0, remaining);
    const left = picked.slice(batch.length);
    if (fresh && left.length > 0) setFiles((prev) => [...prev, ...left]);
    if (batch.length === 0) {
      toast({
        title: "Daily limit reached",
        description: "Today's free compressions are used up; upgrade to Premium to compress these now",
        variant: "destructive",
      });
      return;
    }
    setFailure(null);
    setRefused([]);
    busy.current = true;
    upload.mutate({ files: batch, settings, allowTarget }, {
      onSettled: () => {
        busy.current = false;
      },
      onSuccess: (res) => {
        const refusedNow = res.refused ?? [];
        const n = batch.length - refusedNow.length;
        const notTaken = refusedNow.length > 0
          ? `; ${plural(refusedNow.length, "file was", "files were")} refused`
          : "";
        toast(
          from === "landing"
            ? {
              title: `Your ${plural(n, "photo is", "photos are")} compressing`,
              description: `Picked before you signed in, uploaded with your saved settings: ${
                settingsSummary(settings, allowTarget)
              }${notTaken}`,
            }
            : {
              title: "Upload successful",
              description: `${n} file(s) uploaded and queued for compression${notTaken}`,
            },
        );
        setRefused(refusedNow);
        if (!fresh) setFiles(() => left);
        // A fresh pick's own problems stay listed: they are about the files just sent.
        if (!fresh) setRejections([]);
        onUploaded?.();
      },
      onError: (err) => {
        const text = uploadErrorText(err);
        setFailure(text);
        // Picked (here or on the landing page) and refused: keep them selected, to retry or remove.
        if (fresh) setFiles((prev) => [...prev, ...batch]);
        toast({ title: "Upload failed", description: text, variant: "destructive" });
      },
    });
  };

  usePendingUpload(settingsReady, (found) => {
    const accepted = sort(found, 0);
    if (accepted.length > 0) send(accepted, "landing");
  });

  // Picks that waited start once the settings are known and the upload before them has ended.
  useEffect(() => {
    if (!settingsReady || upload.isPending || busy.current || waiting.length === 0) return;
    setWaiting([]);
    send(waiting, "picked");
    // `send` is left out of the dependencies: it reads this render's quota and settings.
  }, [settingsReady, upload.isPending, waiting]);

  const total = files.reduce((sum, f) => sum + f.size, 0);
  return (
    <Card id="upload" aria-label="Upload images" role="region">
      <CardContent className="space-y-3 p-3 pt-3 sm:p-4">
        <Dropzone
          limits={limits}
          selectedCount={files.length + waiting.length}
          pageDrag={dragging}
          onFiles={addFiles}
        />
        {rejections.length > 0 && (
          <div
            role="alert"
            data-testid="upload-notices"
            className="flex items-start justify-between gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm"
          >
            <ul className="min-w-0 space-y-0.5 text-red-700">
              {rejections.map((r, i) => (
                <li key={`${r.file.name}-${i}`} className="break-all">
                  {r.file.name}: {r.message}
                </li>
              ))}
            </ul>
            <Button variant="ghost" size="sm" className="shrink-0" onClick={() => setRejections([])}>
              Dismiss
            </Button>
          </div>
        )}
        {refused.length > 0 && (
          <div
            role="alert"
            data-testid="upload-refused"
            className="flex items-start justify-between gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm"
          >
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
            <Button variant="ghost" size="sm" className="shrink-0" onClick={() => setRefused([])}>
              Dismiss
            </Button>
          </div>
        )}
        {files.length > 0 && (
          <ul
            className="max-h-40 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200"
            aria-label="Selected files"
          >
            {files.map((f, i) => (
              <SelectedRow
                key={`${f.name}-${f.size}-${f.lastModified}-${i}`}
                file={f}
                disabled={upload.isPending}
                overQuota={i >= remaining}
                onRemove={() => setFiles((prev) => prev.filter((_, j) => j !== i))}
              />
            ))}
          </ul>
        )}
        {waiting.length > 0 && (
          <p role="status" className="text-sm text-slate-600" data-testid="upload-waiting">
            {plural(waiting.length, "image starts", "images start")} compressing as soon as{" "}
            {settingsReady ? "the upload before ends" : "your settings have loaded"}.
          </p>
        )}
        {settingsSlot}
        {usage && usage.limit !== null && (remaining === 0 || sendable < files.length) && (
          <QuotaNotice
            used={usage.used}
            limit={usage.limit}
            resetsAt={usage.resetsAt}
            waiting={files.length - sendable}
          />
        )}
        <div className="flex flex-wrap items-center gap-2">
          {/* Picks start at once: the button is for what stayed selected (over the quota, or refused). */}
          {(files.length > 0 || upload.isPending) && (
            <Button
              onClick={() => send(files, "selection")}
              disabled={sendable === 0 || upload.isPending}
              data-testid="upload-button"
            >
              {upload.isPending
                ? "Uploading..."
                : sendable < files.length
                ? `Compress ${sendable} of ${files.length}`
                : `Upload ${files.length} image${files.length === 1 ? "" : "s"}`}
            </Button>
          )}
          {sendable < files.length && !upload.isPending && (
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
            <Button
              variant="secondary"
              onClick={() => {
                setFiles(() => []);
                setFailure(null);
              }}
              disabled={upload.isPending}
            >
              Clear selection
            </Button>
          )}
          <p className="ml-auto text-sm text-slate-600">
            <span data-testid="selected-count">{files.length} / {limits.maxFiles}</span>
            <span aria-hidden="true" className="mx-1">·</span>
            <span data-testid="selected-size">{formatBytes(total)}</span> selected
          </p>
        </div>
        {failure && !upload.isPending && (
          <p role="alert" className="text-sm font-medium text-red-700" data-testid="upload-error">{failure}</p>
        )}
        <UploadProgressBar progress={upload.isPending ? upload.progress : null} />
      </CardContent>
    </Card>
  );
}

const SelectedRow = memo(function SelectedRow(
  { file, disabled, overQuota, onRemove }: {
    file: File;
    disabled: boolean;
    /** Past today's quota: it will not be sent. */
    overQuota: boolean;
    onRemove: () => void;
  },
) {
  return (
    <li
      className={cn("flex items-center justify-between gap-3 px-3 py-1.5 text-sm", overQuota && "bg-amber-50")}
      data-over-quota={overQuota || undefined}
    >
      <span className="min-w-0 flex-1 truncate" title={file.name}>{file.name}</span>
      {overQuota && (
        <span className="shrink-0 text-xs font-medium text-amber-800" data-testid="over-quota">
          Over today's limit
        </span>
      )}
      <span className="shrink-0 text-slate-500">{formatBytes(file.size)}</span>
      <button
        type="button"
        className="shrink-0 rounded px-1.5 text-slate-500 hover:bg-slate-100 hover:text-red-600"
        aria-label={`Remove ${file.name}`}
        disabled={disabled}
        onClick={onRemove}
      >
        ×
      </button>
    </li>
  );
});

/** Shown only while an upload runs (a slim bar, so the results below barely move). */
function UploadProgressBar({ progress }: { progress: UploadProgress | null }) {
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
function QuotaNotice(
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
