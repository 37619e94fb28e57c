import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { isPremium } from "../../../../../contract/accounts.ts";
import type { Batch, Job } from "../../../../../contract/jobs.ts";
import { planFor } from "../../../../../contract/plans.ts";
import { AdSlot } from "../../ads/components/ad-slot.tsx";
import { useUser } from "../../auth/api/get-user.ts";
import { BatchActions } from "../../batches/components/batch-actions.tsx";
import { BatchPanel } from "../../batches/components/batch-panel.tsx";
import { BATCHES_QUERY_KEY, useBatches } from "../../batches/api/get-batches.ts";
import { useRecompressBatch } from "../../batches/api/batch-actions.ts";
import { SubscriptionCard } from "../../billing/components/subscription-card.tsx";
import { ComparePanel } from "../../compare/components/compare-panel.tsx";
import { useDeleteJobs } from "../../jobs/api/delete-job.ts";
import { downloadUrl, previewUrl, useDownloadAllZip } from "../../jobs/api/download-job.ts";
import { useJobs } from "../../jobs/api/get-jobs.ts";
import { QUEUE_STATUS_QUERY_KEY, useQueueStatus } from "../../jobs/api/get-queue-status.ts";
import { useRecompressJob } from "../../jobs/api/recompress-job.ts";
import { ProcessingQueue } from "../../jobs/components/processing-queue.tsx";
import { isInFlight } from "../../jobs/lib/job-state.ts";
import { QueueStatusCard } from "../../usage/components/queue-status-card.tsx";
import { SessionStatsCard } from "../../usage/components/session-stats-card.tsx";
import { UsageCard } from "../../usage/components/usage-card.tsx";
import { USAGE_QUERY_KEY, useUsage } from "../../usage/api/get-usage.ts";
import { compressSettingsOf } from "../lib/compress-settings.ts";
import { settingsSummary } from "../lib/settings-summary.ts";
import { useCompressSettings } from "../lib/use-compress-settings.ts";
import { InfoBanner } from "./info-banner.tsx";
import { SettingsSummary } from "./settings-summary.tsx";
import { UploadCard } from "./upload-card.tsx";

/** Stable, so memoised job cards are not re-rendered by the page. */
const renderCompare = (job: Job, onClose: () => void) => (
  <ComparePanel job={job} originalSrc={previewUrl(job.id)} compressedSrc={downloadUrl(job.id)} onClose={onClose} />
);

/**
 * Brings the job list into view after an upload, unless its top is already in the upper half
 * of the window (then the drop zone stays in sight too).
 */
function showResults() {
  const results = document.getElementById("results");
  if (!results) return;
  const top = results.getBoundingClientRect().top;
  if (top < 0 || top > innerHeight / 2) results.scrollIntoView({ block: "start" });
}

/**
 * The signed-in home (spec §2): this page composes the features (upload,
 * settings, jobs, compare, batches, usage); none of them import each other.
 * Order: one-line banner, the upload card with the settings summary, then the
 * results directly below, so the first screen holds all three.
 */
export function CompressorPage() {
  const { user } = useUser();
  const premium = user ? isPremium(user.subscriptionStatus) : false;
  const plan = planFor(user?.subscriptionStatus ?? "free");
  const limits = { maxFileBytes: plan.maxFileBytes, maxFiles: plan.maxFilesPerUpload };

  const { settings, update, ready } = useCompressSettings();
  const [files, setFilesState] = useState<File[]>([]);
  const setFiles = useCallback((fn: (prev: File[]) => File[]) => setFilesState(fn), []);

  const jobsQuery = useJobs();
  const jobs = jobsQuery.jobs;
  const active = jobs.some(isInFlight);
  const { batches } = useBatches();
  const queue = useQueueStatus(active);
  const remove = useDeleteJobs();
  const { mutate: zipAll, isPending: zipping } = useDownloadAllZip();
  const downloadAll = useCallback(() => zipAll(), [zipAll]);

  // Re-compress from memory with the settings now in the panel (read through a ref, so the
  // callbacks stay stable and the memoised cards are not re-rendered by every settings change).
  const summary = settingsSummary(settings, premium);
  const current = useRef({ settings: compressSettingsOf(settings, premium), summary });
  current.current = { settings: compressSettingsOf(settings, premium), summary };
  const { mutate: recompressJob } = useRecompressJob();
  const onRecompressJob = useCallback((job: Job) => recompressJob({ job, ...current.current }), [recompressJob]);
  const recompressBatch = useRecompressBatch();
  const { mutate: recompressBatchMutate } = recompressBatch;
  const onRecompressBatch = useCallback(
    (batch: Batch) => recompressBatchMutate({ batch, ...current.current }),
    [recompressBatchMutate],
  );

  // Today's quota, shared with the usage card (one query): the upload card sends only what fits.
  const usage = useUsage(active);
  const quotaKnown = usage.data !== undefined || usage.isError;

  // Polling stops once nothing is in flight; take one last look at what depends on finished work.
  const qc = useQueryClient();
  const wasActive = useRef(active);
  useEffect(() => {
    if (wasActive.current && !active) {
      for (const queryKey of [BATCHES_QUERY_KEY, USAGE_QUERY_KEY, QUEUE_STATUS_QUERY_KEY]) {
        void qc.invalidateQueries({ queryKey });
      }
    }
    wasActive.current = active;
  }, [active, qc]);

  // Back from checkout (or a plan that ended): the limit changed, read today's usage again.
  const wasPremium = useRef(premium);
  useEffect(() => {
    if (wasPremium.current !== premium) void qc.invalidateQueries({ queryKey: USAGE_QUERY_KEY });
    wasPremium.current = premium;
  }, [premium, qc]);

  return (
    <main id="compressor" tabIndex={-1} className="mx-auto max-w-7xl px-3 py-3 outline-none sm:px-4 sm:py-5">
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_320px] lg:gap-6">
        <div className="min-w-0 space-y-4">
          <InfoBanner />
          <UploadCard
            limits={limits}
            settings={settings}
            settingsReady={ready && quotaKnown}
            usage={usage.data}
            allowTarget={premium}
            files={files}
            setFiles={setFiles}
            settingsSlot={<SettingsSummary settings={settings} update={update} premium={premium} />}
            onUploaded={showResults}
          />
          <ProcessingQueue
            jobs={jobs}
            isLoading={jobsQuery.isLoading}
            renderCompare={renderCompare}
            onRecompress={onRecompressJob}
            recompressSettings={summary}
          />
          <BatchActions
            jobs={jobs}
            downloadAll={downloadAll}
            downloading={zipping}
            deleteJobs={remove.mutate}
            deleting={remove.isPending}
          />
          <BatchPanel
            batches={batches}
            onRecompress={onRecompressBatch}
            recompressSettings={summary}
            recompressingId={recompressBatch.isPending ? recompressBatch.variables?.batch.id : undefined}
          />
          <AdSlot placement="compressor" />
        </div>
        <aside aria-label="Account and usage" className="min-w-0 space-y-6">
          <SubscriptionCard />
          <UsageCard active={active} />
          <SessionStatsCard jobs={jobs} />
          <QueueStatusCard status={queue.data} />
          <AdSlot placement="sidebar" />
        </aside>
      </div>
    </main>
  );
}
