import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { isPremium } from "../../../contract/accounts.ts";
import type { Batch, Job } from "../../../contract/jobs.ts";
import { planFor } from "../../../contract/plans.ts";
import { queryKeys } from "@web-api/query-keys.ts";
import { downloadUrl, heldJpegUrl, previewUrl } from "@web-api/endpoints.ts";
import { QueryError, QueryLoading } from "../components/ui/query-state.tsx";
import { AdSlot } from "../features/ads/index.ts";
import { useUser } from "../features/auth/index.ts";
import { BatchActions, BatchPanel, useBatches, useRecompressBatch } from "../features/batches/index.ts";
import { SubscriptionCard } from "../features/billing/index.ts";
import { ComparePanel } from "../features/compare/index.ts";
import { LivePreviewPanel } from "../features/live-preview/index.ts";
import {
  awaitsServer,
  isInFlight,
  ProcessingQueue,
  useDeleteJobs,
  useDownloadAllZip,
  useJobs,
  useQueueStatus,
  useRecompressJob,
} from "../features/jobs/index.ts";
import { QueueStatusCard, SessionStatsCard, UsageCard, useUsage } from "../features/usage/index.ts";
import { RestoreCard } from "../features/restore/index.ts";
import {
  InfoBanner,
  PhoneActionBar,
  sendableSettings,
  SettingsSummary,
  settingsSummary,
  UploadCard,
  useCompressSettings,
} from "../features/compressor/index.ts";

/** Stable, so memoised job cards are not re-rendered by the page. */
const renderLivePreview = (job: Job, onClose: () => void) => <LivePreviewPanel job={job} onClose={onClose} />;
const renderCompare = (job: Job, onClose: () => void) => (
  <ComparePanel
    job={job}
    originalSrc={previewUrl(job.id)}
    compressedSrc={job.format === "jxl" ? heldJpegUrl(job.id) : downloadUrl(job.id)}
    onClose={onClose}
    renderLivePreview={(close) => renderLivePreview(job, close)}
  />
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
 * settings, jobs, compare, live preview, batches, usage), so it lives in the app, not in one of them.
 * Order: one-line banner, the upload card with the settings summary, then the
 * results directly below, so the first screen holds all three.
 */
export function CompressorPage() {
  const { user } = useUser();
  const premium = user ? isPremium(user.subscriptionStatus) : false;
  const plan = planFor(user?.subscriptionStatus ?? "free");
  const limits = { maxFileBytes: plan.maxFileBytes, maxFiles: plan.maxFilesPerUpload };

  const { settings, update, ready, query: savedSettings } = useCompressSettings();
  const [files, setFilesState] = useState<File[]>([]);
  const setFiles = useCallback((fn: (prev: File[]) => File[]) => setFilesState(fn), []);

  const jobsQuery = useJobs();
  const jobs = jobsQuery.jobs;
  const active = jobs.some(isInFlight);
  const batchesQuery = useBatches();
  const queue = useQueueStatus(active);
  const remove = useDeleteJobs();
  const { mutate: zipAll, isPending: zipping } = useDownloadAllZip();
  const downloadAll = useCallback((versions?: "latest" | "all") => zipAll(versions ?? "latest"), [zipAll]);

  // Re-compress from memory with the settings now in the panel (read through a ref, so the
  // callbacks stay stable and the memoised cards are not re-rendered by every settings change).
  const summary = settingsSummary(settings, premium);
  const current = useRef({ settings: sendableSettings(settings, premium), summary });
  current.current = { settings: sendableSettings(settings, premium), summary };
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
      for (const queryKey of [queryKeys.batches, queryKeys.usage, queryKeys.queueStatus]) {
        void qc.invalidateQueries({ queryKey });
      }
    }
    wasActive.current = active;
  }, [active, qc]);

  // A fixed-quality job's score arrives after it completes (deferred), when its batch may have stopped polling:
  // the batch rows read their scores again once the last one is in.
  const awaiting = jobs.some(awaitsServer);
  const wasAwaiting = useRef(awaiting);
  useEffect(() => {
    if (wasAwaiting.current && !awaiting) void qc.invalidateQueries({ queryKey: queryKeys.batches });
    wasAwaiting.current = awaiting;
  }, [awaiting, qc]);

  // Back from checkout (or a plan that ended): the limit changed, read today's usage again.
  const wasPremium = useRef(premium);
  useEffect(() => {
    if (wasPremium.current !== premium) void qc.invalidateQueries({ queryKey: queryKeys.usage });
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
            settingsSlot={savedSettings.isPending ? <QueryLoading what="your saved settings" /> : (
              <>
                {savedSettings.isError && (
                  <QueryError what="your saved settings" query={savedSettings}>
                    <p>Until they load, the settings below apply.</p>
                  </QueryError>
                )}
                <SettingsSummary settings={settings} update={update} premium={premium} />
              </>
            )}
            onUploaded={showResults}
          />
          <ProcessingQueue
            jobs={jobs}
            query={jobsQuery}
            renderCompare={renderCompare}
            renderLivePreview={renderLivePreview}
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
            batches={batchesQuery.batches}
            query={batchesQuery}
            onRecompress={onRecompressBatch}
            recompressSettings={summary}
            recompressingId={recompressBatch.isPending ? recompressBatch.variables?.batch.id : undefined}
          />
          <AdSlot placement="compressor" />
        </div>
        <aside aria-label="Account and usage" className="min-w-0 space-y-6">
          <SubscriptionCard />
          <UsageCard active={active} />
          <SessionStatsCard jobs={jobs} query={jobsQuery} />
          <QueueStatusCard query={queue} />
          <RestoreCard />
          <AdSlot placement="sidebar" />
        </aside>
      </div>
      <PhoneActionBar jobs={jobs} premium={premium} downloadAll={downloadAll} downloading={zipping} />
    </main>
  );
}
