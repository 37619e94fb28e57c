import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Job } from "../../../../../contract/jobs.ts";
import { apiJson } from "../../../api/client.ts";
import { awaitsServer } from "../lib/job-state.ts";

export const JOBS_QUERY_KEY = ["/api/jobs"] as const;
/** Spec §9: jobs are polled every second while any is pending or processing. */
export const JOBS_POLL_MS = 1000;

export const getJobs = () => apiJson<{ jobs: Job[] }>("GET", "/api/jobs");

export const jobsQueryOptions = () =>
  queryOptions({
    queryKey: JOBS_QUERY_KEY,
    queryFn: getJobs,
    // Paused while nothing is in flight; an upload or an action invalidates the query.
    refetchInterval: (query) => (query.state.data?.jobs.some(awaitsServer) ? JOBS_POLL_MS : false),
  });

export function useJobs() {
  const query = useQuery(jobsQueryOptions());
  return { ...query, jobs: query.data?.jobs ?? EMPTY };
}

const EMPTY: Job[] = [];
