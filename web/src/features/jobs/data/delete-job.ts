import { useMutation, useQueryClient } from "@tanstack/react-query";
import { messageOf } from "@web-api/client.ts";
import { deleteJob } from "@web-api/endpoints.ts";
import { queryKeys } from "@web-api/query-keys.ts";
import { toast } from "../../../components/ui/use-toast.ts";

/** Deletes jobs one request per job (spec §7), then refreshes the list and the batches that held them. */
export async function deleteJobs(ids: string[]): Promise<void> {
  for (const id of ids) await deleteJob(id);
}

export function useDeleteJobs() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteJobs,
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.jobs }),
        // The batch panel hides emptied batches and their ZIP links.
        qc.invalidateQueries({ queryKey: queryKeys.batches }),
      ]),
    onError: (err) =>
      toast({
        title: "Delete failed",
        description: messageOf(err, "The job could not be deleted"),
        variant: "destructive",
      }),
  });
}
