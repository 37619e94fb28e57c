import { memo, useState } from "react";
import { ApiRequestError } from "../../../api/client.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { formatBytes } from "../../../lib/format-bytes.ts";
import type { SavedSettings } from "../api/settings.ts";
import { type UploadProgress, useUploadImages } from "../api/upload-images.ts";
import { type FileRejection, limitLabel, selectFiles, type UploadLimits } from "../lib/validate-files.ts";
import { Dropzone } from "./dropzone.tsx";
import { PendingFilesOffer } from "./pending-files-offer.tsx";

interface Notice {
  title: string;
  description: string;
}

/** Spec §8: the server's message, "Upload failed" when it sent none, or the generic text. */
export function uploadErrorText(err: unknown): string {
  if (err instanceof ApiRequestError) return err.serverMessage ?? "Upload failed";
  if (err instanceof Error) return err.message;
  return "An error occurred during upload";
}

/** The dropzone, the selected list ("{count} / {max}", total size) and the upload with its progress. */
export function UploadCard(
  { limits, settings, allowTarget, files, setFiles }: {
    limits: UploadLimits;
    settings: SavedSettings;
    allowTarget: boolean;
    files: File[];
    setFiles: (update: (prev: File[]) => File[]) => void;
  },
) {
  const upload = useUploadImages();
  const [notices, setNotices] = useState<Notice[]>([]);
  const [rejections, setRejections] = useState<FileRejection[]>([]);
  const limit = limitLabel(limits.maxFileBytes);

  const addFiles = (picked: File[]) => {
    if (picked.length === 0) return;
    const result = selectFiles(picked, files.length, limits);
    const flagged: Notice[] = [];
    if (result.invalidType > 0) {
      flagged.push({
        title: "Invalid file types detected",
        description: `${result.invalidType} file(s) are not JPEG images and will be skipped`,
      });
    }
    if (result.tooLarge > 0) {
      flagged.push({
        title: "Large files detected",
        description: `${result.tooLarge} file(s) exceed ${limit} limit and will be skipped`,
      });
    }
    // One notice shows at a time (spec §8), so the flagged ones also stay listed in the card.
    for (const n of flagged) toast({ ...n, variant: "destructive" });
    setNotices(flagged);
    setRejections(result.rejections);
    if (result.accepted.length === 0) {
      toast({
        title: "No valid files",
        description: `Please select JPEG images under ${limit}`,
        variant: "destructive",
      });
      return;
    }
    if (result.accepted.length < picked.length) {
      toast({
        title: "Some files processed",
        description: `${result.accepted.length} of ${picked.length} files will be uploaded`,
      });
    }
    setFiles((prev) => [...prev, ...result.accepted]);
  };

  const start = () => {
    if (files.length === 0) return;
    const count = files.length;
    upload.mutate({ files, settings, allowTarget }, {
      onSuccess: () => {
        toast({ title: "Upload successful", description: `${count} file(s) uploaded and queued for compression` });
        setFiles(() => []);
        setNotices([]);
        setRejections([]);
      },
      onError: (err) => toast({ title: "Upload failed", description: uploadErrorText(err), variant: "destructive" }),
    });
  };

  const total = files.reduce((sum, f) => sum + f.size, 0);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Upload Images</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <PendingFilesOffer onAccept={addFiles} />
        <Dropzone limits={limits} selectedCount={files.length} disabled={upload.isPending} onFiles={addFiles} />
        {(notices.length > 0 || rejections.length > 0) && (
          <div
            role="status"
            data-testid="upload-notices"
            className="space-y-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm"
          >
            {notices.map((n) => (
              <p key={n.title}>
                <span className="font-semibold text-red-800">{n.title}</span>{" "}
                <span className="text-red-700">{n.description}</span>
              </p>
            ))}
            <ul className="space-y-0.5 text-red-700">
              {rejections.map((r, i) => (
                <li key={`${r.file.name}-${i}`} className="break-all">
                  {r.file.name}: {r.message}
                </li>
              ))}
            </ul>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setNotices([]);
                setRejections([]);
              }}
            >
              Dismiss
            </Button>
          </div>
        )}
        <div className="space-y-2">
          <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
            <h3 className="font-medium">Selected files</h3>
            <p className="text-slate-600">
              <span data-testid="selected-count">{files.length} / {limits.maxFiles}</span>
              <span aria-hidden="true">·</span>
              <span data-testid="selected-size">{formatBytes(total)}</span> total
            </p>
          </div>
          {files.length > 0 && (
            <ul
              className="max-h-48 divide-y divide-slate-100 overflow-y-auto rounded-lg border border-slate-200"
              aria-label="Selected files"
            >
              {files.map((f, i) => (
                <SelectedRow
                  key={`${f.name}-${f.size}-${f.lastModified}-${i}`}
                  file={f}
                  disabled={upload.isPending}
                  onRemove={() => setFiles((prev) => prev.filter((_, j) => j !== i))}
                />
              ))}
            </ul>
          )}
        </div>
        <UploadProgressBar progress={upload.isPending ? upload.progress : null} />
        <div className="flex flex-wrap gap-2">
          <Button onClick={start} disabled={files.length === 0 || upload.isPending}>
            {upload.isPending
              ? "Uploading..."
              : files.length === 0
              ? "Upload images"
              : `Upload ${files.length} image${files.length === 1 ? "" : "s"}`}
          </Button>
          <Button
            variant="secondary"
            onClick={() => setFiles(() => [])}
            disabled={files.length === 0 || upload.isPending}
          >
            Clear selection
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

const SelectedRow = memo(function SelectedRow(
  { file, disabled, onRemove }: { file: File; disabled: boolean; onRemove: () => void },
) {
  return (
    <li className="flex items-center justify-between gap-3 px-3 py-1.5 text-sm">
      <span className="min-w-0 flex-1 truncate" title={file.name}>{file.name}</span>
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

/** A fixed-height slot so the page does not jump when an upload starts or ends. */
function UploadProgressBar({ progress }: { progress: UploadProgress | null }) {
  const pct = progress && progress.total > 0 ? Math.min(100, Math.round((progress.sent / progress.total) * 100)) : 0;
  return (
    <div className="h-9" aria-live="polite">
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
