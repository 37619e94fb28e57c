import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest, messageOf } from "../../../api/client.ts";
import { toast } from "../../../components/ui/use-toast.ts";
import { JOBS_QUERY_KEY } from "./get-jobs.ts";

export const deleteJob = (id: string) => apiRequest("DELETE", `/api/jobs/${encodeURIComponent(id)}`);

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
        qc.invalidateQueries({ queryKey: JOBS_QUERY_KEY }),
        // The batch panel hides emptied batches and their ZIP links (key of features/batches).
        qc.invalidateQueries({ queryKey: ["/api/batches"] }),
      ]),
    onError: (err) =>
      toast({
        title: "Delete failed",
        description: messageOf(err, "The job could not be deleted"),
        variant: "destructive",
      }),
  });
}
