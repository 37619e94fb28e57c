import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CompressResponse, Job } from "../../../../../contract/jobs.ts";
import type { CompressSettings, RecompressRequest } from "../../../../../contract/settings.ts";
import { apiJson, messageOf } from "../../../api/client.ts";
import { toast } from "../../../components/ui/use-toast.ts";
import { JOBS_QUERY_KEY } from "./get-jobs.ts";
import { QUEUE_STATUS_QUERY_KEY } from "./get-queue-status.ts";

/**
 * `POST /api/jobs/:id/recompress` (issue 15, item 5): compresses the original the store still holds again
 * with `settings`; the answer is a new batch whose job carries `sourceJobId`. The old result stays.
 */
export const recompressJob = (id: string, settings: CompressSettings) =>
  apiJson<CompressResponse>(
    "POST",
    `/api/jobs/${encodeURIComponent(id)}/recompress`,
    { settings } satisfies RecompressRequest,
  );

export interface RecompressJobInput {
  job: Pick<Job, "id" | "filename">;
  settings: CompressSettings;
  /** The settings in words, for the toast ("Quality 60 · JPEG · metadata stripped"). */
  summary: string;
}

/** Re-compress one job; the toast names what happened, and every view of the work is refreshed. */
export function useRecompressJob() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ job, settings }: RecompressJobInput) => recompressJob(job.id, settings),
    onSuccess: (_res, { job, summary }) =>
      toast({
        title: `Re-compressing ${job.filename}`,
        description: `With ${summary}. The earlier result stays as it is.`,
      }),
    onError: (err, { job }) =>
      toast({
        title: `Could not re-compress ${job.filename}`,
        description: messageOf(err, "Please try again"),
        variant: "destructive",
      }),
    onSettled: () => {
      // Keys of features/batches and features/usage: the new batch, and quota once a free re-compression is used.
      for (const queryKey of [JOBS_QUERY_KEY, QUEUE_STATUS_QUERY_KEY, ["/api/batches"], ["/api/usage"]]) {
        void qc.invalidateQueries({ queryKey });
      }
    },
  });
}
