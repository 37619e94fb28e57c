import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Batch } from "../../../../../contract/jobs.ts";
import type { RecompressSettings } from "../../../../../contract/settings.ts";
import { messageOf } from "@web-api/client.ts";
import { type BatchAction, recompressBatch, runBatchAction } from "@web-api/endpoints.ts";
import { queryKeys } from "@web-api/query-keys.ts";
import { toast } from "../../../components/ui/use-toast.ts";

export type { BatchAction };

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
      void qc.invalidateQueries({ queryKey: queryKeys.batches });
      void qc.invalidateQueries({ queryKey: queryKeys.jobs });
    },
    onError: (err, { action }) =>
      toast({ title: FAILED[action], description: messageOf(err, "Please try again"), variant: "destructive" }),
  });
}

export interface RecompressBatchInput {
  batch: Pick<Batch, "id" | "name">;
  /** Exactly the settings on screen: what the user sees is what runs. */
  settings: RecompressSettings;
  /** The settings in words, for the toast. */
  summary: string;
}

/** Every completed image of the batch again (issue 15, item 5), as a new batch; the old results stay. */
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
      for (const queryKey of [queryKeys.batches, queryKeys.jobs, queryKeys.queueStatus, queryKeys.usage]) {
        void qc.invalidateQueries({ queryKey });
      }
    },
  });
}
