/**
 * Versions of one photo (issue 24, item 4): a re-compression is a new job whose `sourceJobId` is the first
 * upload's id, so a photo is `sourceJobId ?? id`. The job list shows each photo once (its newest version,
 * the earlier ones folded under it); counts, summaries and "Download all" count each photo once, at the
 * version the ZIP holds: its latest completed result still held.
 */
import type { Job } from "../../../contract/jobs.ts";

export const photoOf = (job: Pick<Job, "id" | "sourceJobId">): string => job.sourceJobId ?? job.id;

/** One photo: the version shown (its newest) and the earlier ones, newest first. */
export interface PhotoVersions {
  job: Job;
  earlier: Job[];
}

const newestFirst = (a: Job, b: Job) => b.createdAt.localeCompare(a.createdAt);

/** The jobs as photos, in the order of each photo's newest version (the server sends newest first). */
export function photoVersions(jobs: Job[]): PhotoVersions[] {
  const byPhoto = new Map<string, Job[]>();
  for (const job of jobs) byPhoto.set(photoOf(job), [...(byPhoto.get(photoOf(job)) ?? []), job]);
  return [...byPhoto.values()].map((versions) => {
    const [job, ...earlier] = [...versions].sort(newestFirst);
    return { job: job!, earlier };
  }).sort((a, b) => newestFirst(a.job, b.job));
}

const held = (job: Job) => job.status === "completed" && !job.expired;

/** Each photo once, as counted: its latest completed result still held, else its newest version. */
export function countedVersions(jobs: Job[]): Job[] {
  return photoVersions(jobs).map(({ job, earlier }) => [job, ...earlier].find(held) ?? job);
}

/** How many photos have more than one result still held (when "All versions" gives more than the latest). */
export function photosWithVersions(jobs: Job[]): number {
  return photoVersions(jobs).filter(({ job, earlier }) => [job, ...earlier].filter(held).length > 1).length;
}
