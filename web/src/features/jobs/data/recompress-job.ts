import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Job } from "../../../../../contract/jobs.ts";
import type { RecompressSettings } from "../../../../../contract/settings.ts";
import { messageOf } from "@web-api/client.ts";
import { recompressJob } from "@web-api/endpoints.ts";
import { queryKeys } from "@web-api/query-keys.ts";
import { toast } from "../../../components/ui/use-toast.ts";

export interface RecompressJobInput {
  job: Pick<Job, "id" | "filename">;
  /** Exactly the settings on screen: what the user sees is what runs. */
  settings: RecompressSettings;
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
      // The new batch, and quota once a free re-compression is used.
      for (const queryKey of [queryKeys.jobs, queryKeys.queueStatus, queryKeys.batches, queryKeys.usage]) {
        void qc.invalidateQueries({ queryKey });
      }
    },
  });
}
