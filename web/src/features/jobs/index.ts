export { ProcessingQueue } from "./components/processing-queue.tsx";
export { useJobs } from "./data/get-jobs.ts";
export { useQueueStatus } from "./data/get-queue-status.ts";
export { useDeleteJobs } from "./data/delete-job.ts";
export { useDownloadAllZip } from "./data/download-job.ts";
export { useRecompressJob } from "./data/recompress-job.ts";
export { awaitsServer, isInFlight } from "./lib/job-state.ts";
