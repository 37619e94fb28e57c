import { useEffect, useId, useState, useSyncExternalStore } from "react";
import { isPremium } from "../../../../../contract/accounts.ts";
import { type Job, resultFormat } from "../../../../../contract/jobs.ts";
import { FORMATS } from "../../../../../contract/formats.ts";
import { Button } from "../../../components/ui/button.tsx";
import { sendable } from "../../../lib/sendable-settings.ts";
import { useUser } from "../../auth/index.ts";
import { useRecompressBatch } from "../../batches/index.ts";
import { useRecompressJob } from "../../jobs/index.ts";
import { fetchOriginal } from "../data/get-original.ts";
import { PreviewEngine } from "../lib/preview-engine.ts";
import { previewSummary } from "../lib/summary.ts";
import { useEngineSync } from "../lib/use-engine-sync.ts";
import { usePreviewViewport } from "../lib/use-preview-viewport.ts";
import { PredictedFigures } from "./predicted-figures.tsx";
import { type PreviewSettings, PreviewSettingsForm } from "./preview-settings-form.tsx";
import { PreviewView } from "./preview-view.tsx";

/**
 * Live preview (issue 24, item 1): tune one photo's settings against its original, encoded in this browser
 * by the project's own codecs in a Web Worker. Nothing reaches the server while tuning (the original is
 * fetched once); "Apply" re-compresses on the server with exactly the settings on screen.
 */
export function LivePreviewPanel(
  { job, onClose }: { job: Job; onClose?: () => void },
) {
  const ids = useId();
  const { user } = useUser();
  const premium = user ? isPremium(user.subscriptionStatus) : false;
  const [engine] = useState(() => new PreviewEngine(fetchOriginal(job.id)));
  useEffect(() => () => engine.close(), [engine]);
  const state = useSyncExternalStore(engine.subscribe, () => engine.snapshot);
  // One format at a time: a job on format=auto previews the format it was written in.
  const [settings, setSettings] = useState<PreviewSettings>(() => ({
    ...job.settings,
    format: resultFormat(job),
    target: premium ? job.settings.target : null,
  }));
  const update = (patch: Partial<PreviewSettings>) => setSettings((s) => ({ ...s, ...patch }));
  const effective = sendable(settings, premium);
  const viewport = usePreviewViewport(state, effective);
  const { plan, imageWidth, imageHeight } = viewport;
  useEngineSync({
    engine,
    state,
    settings: effective,
    target: settings.target,
    region: viewport.region,
    viewWidth: viewport.viewWidth,
  });

  const recompressJob = useRecompressJob();
  const recompressBatch = useRecompressBatch();
  const summary = previewSummary(effective);
  const full = state.full;

  return (
    <section
      aria-labelledby={`${ids}-title`}
      className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3"
      data-testid="live-preview"
      data-status={state.status}
      data-crop-gen={state.crop?.gen}
      data-crop-ms={state.crop ? Math.round(state.crop.ms) : undefined}
      data-full-gen={full?.gen}
      data-full-ms={full ? Math.round(full.roundTripMs) : undefined}
      data-full-pending={state.fullPending || undefined}
      data-size-gen={state.size?.gen}
      data-size-ms={state.size ? Math.round(state.size.roundTripMs) : undefined}
      data-encode-ms={full ? Math.round(full.encodeMs) : undefined}
      data-measure-ms={full ? Math.round(full.measureMs) : undefined}
    >
      <div className="flex items-baseline justify-between gap-2">
        <h2 id={`${ids}-title`} className="text-base font-semibold">Live preview</h2>
        {onClose && <Button size="sm" variant="ghost" onClick={onClose}>Close</Button>}
      </div>
      <p className="text-xs text-slate-500">
        The original on the left, these settings on the right of the divider, encoded in your browser at 1:1 of the
        {plan ? ` resized photo (${imageWidth}×${imageHeight})` : " photo"}; drag the photo to move. Nothing is sent to
        the server until you apply.
      </p>
      <PreviewView
        state={state}
        viewport={viewport}
        filename={job.filename}
        formatLabel={FORMATS[settings.format].label}
      />
      <PredictedFigures state={state} originalSize={job.originalSize} />
      <PreviewSettingsForm settings={settings} effective={effective} premium={premium} update={update} />

      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          disabled={recompressJob.isPending}
          title={`Re-compress ${job.filename} with ${summary}`}
          onClick={() => recompressJob.mutate({ job, settings: effective, summary })}
        >
          Apply to this photo
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={recompressBatch.isPending}
          title={`Re-compress every image of this batch with ${summary}`}
          onClick={() =>
            recompressBatch.mutate({ batch: { id: job.batchId, name: "this batch" }, settings: effective, summary })}
        >
          Apply to the batch
        </Button>
      </div>
    </section>
  );
}
