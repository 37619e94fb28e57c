import { useEffect, useRef, useState } from "react";
import type { RefusedFile, Usage } from "../../../../../contract/jobs.ts";
import { ApiRequestError } from "@web-api/client.ts";
import { toast } from "../../../components/ui/use-toast.ts";
import { type FileRejection, limitLabel, selectFiles, type UploadLimits } from "../../../lib/validate-files.ts";
import type { SavedSettings } from "../data/settings.ts";
import { useUploadImages } from "../data/upload-images.ts";
import { settingsSummary } from "./settings-summary.ts";
import { usePendingUpload } from "./use-pending-upload.ts";

/** Spec §8: the server's message, "Upload failed" when it sent none, or the generic text. */
export function uploadErrorText(err: unknown): string {
  if (err instanceof ApiRequestError) return err.serverMessage ?? "Upload failed";
  if (err instanceof Error) return err.message;
  return "An error occurred during upload";
}

export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** How many more images today's quota takes: `Infinity` without a limit (Premium) or before usage loads. */
export const remainingToday = (usage: Usage | undefined): number =>
  !usage || usage.limit === null ? Infinity : Math.max(0, usage.limit - usage.used);

/** Where files to send came from: picked or dropped here, the landing page, or the selected list's button. */
type SendFrom = "picked" | "landing" | "selection";

export interface UploadQueueOptions {
  limits: UploadLimits;
  settings: SavedSettings;
  /** The user's remembered settings and usage have loaded (the landing page's files wait for them). */
  settingsReady: boolean;
  /** Today's usage (issue 15, item 3): only what fits the daily quota is sent. */
  usage: Usage | undefined;
  allowTarget: boolean;
  /** The selected list: what stayed over the quota or was refused, to send again or remove. */
  files: File[];
  setFiles: (update: (prev: File[]) => File[]) => void;
  /** After the server accepted an upload (the page shows the results). */
  onUploaded?: () => void;
}

/**
 * The upload queue behind the upload card: files dropped or picked start compressing at once with the
 * current settings (issue 24 item 3), as files picked on the landing page before sign-up do once the saved
 * settings are known; picks wait while the settings load or an upload runs. The quota comes first: what is
 * past today's limit stays in the selected list (`files`) and is not sent. The spec's notices go out as
 * toasts; what was refused is kept for the card to list once each, inline, with its figures.
 */
export function useUploadQueue(
  { limits, settings, settingsReady, usage, allowTarget, files, setFiles, onUploaded }: UploadQueueOptions,
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

  return {
    addFiles,
    /** Sends what stayed selected (over the quota, or refused). */
    sendSelection: () => send(files, "selection"),
    /** Empties the selection and forgets the last failure. */
    clearSelection: () => {
      setFiles(() => []);
      setFailure(null);
    },
    pending: upload.isPending,
    progress: upload.isPending ? upload.progress : null,
    /** How many more images today's quota takes, and how many of the selection it takes. */
    remaining,
    sendable: Math.min(files.length, remaining),
    waiting,
    rejections,
    dismissRejections: () => setRejections([]),
    refused,
    dismissRefused: () => setRefused([]),
    failure,
  };
}
