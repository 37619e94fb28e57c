import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Batch, CompressResponse } from "../../../../../contract/jobs.ts";
import type { CompressSettings, RecompressRequest } from "../../../../../contract/settings.ts";
import { apiJson, apiRequest, messageOf } from "../../../api/client.ts";
import { toast } from "../../../components/ui/use-toast.ts";
import { BATCHES_QUERY_KEY } from "./get-batches.ts";

export type BatchAction = "pause" | "resume" | "cancel";

const batchPath = (id: string) => `/api/batches/${encodeURIComponent(id)}`;

export const zipUrl = (id: string) => `${batchPath(id)}/download.zip`;

export function runBatchAction({ id, action }: { id: string; action: BatchAction }): Promise<Response> {
  if (action === "cancel") return apiRequest("DELETE", batchPath(id));
  return apiRequest("POST", `${batchPath(id)}/${action}`);
}

const FAILED: Record<BatchAction, string> = {
  pause: "Pause failed",
  resume: "Resume failed",
  cancel: "Cancel failed",
};

/** Pause, resume or cancel a batch; each then refreshes batches (spec §7) and the jobs they hold. */
export function useBatchAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: runBatchAction,
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: BATCHES_QUERY_KEY });
      void qc.invalidateQueries({ queryKey: ["/api/jobs"] });
    },
    onError: (err, { action }) =>
      toast({ title: FAILED[action], description: messageOf(err, "Please try again"), variant: "destructive" }),
  });
}

/**
 * `POST /api/batches/:id/recompress` (issue 15, item 5): every completed image of the batch again,
 * from the originals the store still holds, as a new batch; the old results stay.
 */
export const recompressBatch = (id: string, settings: CompressSettings) =>
  apiJson<CompressResponse>("POST", `${batchPath(id)}/recompress`, { settings } satisfies RecompressRequest);

export interface RecompressBatchInput {
  batch: Pick<Batch, "id" | "name">;
  settings: CompressSettings;
  /** The settings in words, for the toast. */
  summary: string;
}

export function useRecompressBatch() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ batch, settings }: RecompressBatchInput) => recompressBatch(batch.id, settings),
    onSuccess: (res, { batch, summary }) => {
      const n = res.jobs.length;
      toast({
        title: `Re-compressing ${n} image${n === 1 ? "" : "s"} of ${batch.name}`,
        description: `With ${summary}, as a new batch. The earlier results stay as they are.`,
      });
    },
    onError: (err, { batch }) =>
      toast({
        title: `Could not re-compress ${batch.name}`,
        description: messageOf(err, "Please try again"),
        variant: "destructive",
      }),
    onSettled: () => {
      for (const queryKey of [BATCHES_QUERY_KEY, ["/api/jobs"], ["/api/queue/status"], ["/api/usage"]]) {
        void qc.invalidateQueries({ queryKey });
      }
    },
  });
}
