import { useQuery } from "@tanstack/react-query";
import type { Job } from "../../../../../contract/jobs.ts";
import { listJobs } from "@web-api/endpoints.ts";
import { queryKeys } from "@web-api/query-keys.ts";
import { awaitsServer } from "../lib/job-state.ts";

/** Spec §9: jobs are polled every second while any is pending or processing. */
export const JOBS_POLL_MS = 1000;

export function useJobs() {
  const query = useQuery({
    queryKey: queryKeys.jobs,
    queryFn: listJobs,
    // Paused while nothing is in flight; an upload or an action invalidates the query.
    refetchInterval: (query) => (query.state.data?.jobs.some(awaitsServer) ? JOBS_POLL_MS : false),
  });
  return { ...query, jobs: query.data?.jobs ?? EMPTY };
}

const EMPTY: Job[] = [];
