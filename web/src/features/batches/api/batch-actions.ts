import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest, messageOf } from "../../../api/client.ts";
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
