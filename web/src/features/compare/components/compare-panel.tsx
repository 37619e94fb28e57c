import { type ReactNode, useState } from "react";
import { LivePreviewButton } from "../../../components/live-preview-button.tsx";
import { type Job, withSsimulacra2 } from "../../../../../contract/jobs.ts";
import { Dialog, DialogClose } from "../../../components/ui/dialog.tsx";
import { formatBytes } from "../../../../../contract/format-bytes.ts";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/tabs.tsx";
import { useZoomPan } from "../lib/use-zoom-pan.ts";
import { COMPARE_MODES, type CompareMode, SPLIT_DEFAULT } from "../lib/view-state.ts";
import { GridView, OverlayView, SplitView, type ViewProps } from "./compare-views.tsx";
import { HoldOriginalButton, useHoldOriginal } from "./hold-original.tsx";
import { QualityScores } from "./quality-scores.tsx";
import { ZoomControls } from "./zoom-controls.tsx";

/** "Compressed · 245 KB · 84.1": the result's size and its SSIMULACRA 2 score (when measured). */
export function compressedLabel(job: Job): string {
  const size = formatBytes(job.compressedSize ?? job.originalSize);
  const ssim = withSsimulacra2(job.scores)?.ssimulacra2;
  // A JPEG XL result is shown by the JPEG it holds: the same pixels (browsers may not show JPEG XL).
  const what = job.format === "jxl" ? "JPEG XL (shown by its JPEG: the same pixels)" : "Compressed";
  return typeof ssim === "number" ? `${what} · ${size} · ${ssim.toFixed(1)}` : `${what} · ${size}`;
}

/**
 * Compare one completed job: split / overlay / grid, in a modal dialog (issue 24 item 2) opened over the
 * page near the top of the window, so it is where the eyes are: Esc closes it, Tab stays inside it and
 * focus goes back to the opener. The frame takes the image's aspect ratio; zoom is the true scale against
 * the image's own pixels on the screen's device pixels ("Fit", "1:1", 25% steps, the wheel and a pinch
 * around the pointer), kept with the pan above the views so switching views keeps them (`useZoomPan`).
 * Holding "Hold to see original" (or the space bar) shows the original. Below 640 px the dialog fills the
 * screen, with a Close bar at the bottom.
 */
export function ComparePanel(
  { job, originalSrc, compressedSrc, onClose, renderLivePreview }: {
    job: Job;
    originalSrc: string;
    compressedSrc: string;
    onClose?: () => void;
    /** The Live preview panel on this photo's original (issue 24, item 1), supplied by the page. */
    renderLivePreview?: (onClose: () => void) => ReactNode;
  },
) {
  const [previewing, setPreviewing] = useState(false);
  const [mode, setMode] = useState<CompareMode>("split");
  const [split, setSplit] = useState(SPLIT_DEFAULT);
  const [opacity, setOpacity] = useState(50);
  const zoom = useZoomPan(job.width && job.height ? { width: job.width, height: job.height } : null);
  const hold = useHoldOriginal();

  const view: ViewProps = {
    originalSrc,
    compressedSrc,
    ...zoom.view,
    holding: hold.holding,
    compressedLabel: compressedLabel(job),
  };

  return (
    <Dialog
      aria-label={`Compare ${job.filename}`}
      data-testid="compare-dialog"
      onClose={onClose}
      onKeyDown={hold.onKeyDown}
      onKeyUp={hold.onKeyUp}
      onCancel={() => hold.setHolding(false)}
      className="fixed inset-x-0 top-3 bottom-auto mx-auto my-0 max-h-[calc(100dvh-1.5rem)] w-[min(72rem,calc(100vw-2rem))] max-w-none overflow-y-auto rounded-xl border-0 bg-white p-0 text-slate-900 shadow-2xl outline-none backdrop:bg-slate-900/60 max-sm:top-0 max-sm:h-dvh max-sm:max-h-none max-sm:w-screen max-sm:rounded-none"
    >
      <section
        aria-label={`Compare ${job.filename}`}
        className="space-y-3 bg-slate-50 p-3 max-sm:flex max-sm:min-h-full max-sm:flex-col max-sm:bg-white max-sm:p-2"
        data-testid="compare-panel"
      >
        <div className="flex items-center justify-between gap-2 max-sm:hidden">
          <h2 className="min-w-0 truncate text-base font-semibold" title={job.filename}>{job.filename}</h2>
          <DialogClose size="sm" variant="secondary" aria-keyshortcuts="Escape">Close</DialogClose>
        </div>
        <Tabs value={mode} onValueChange={(v) => setMode(v as CompareMode)}>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <TabsList aria-label="Compare view" className="w-full grid-cols-3 sm:w-64">
              {COMPARE_MODES.map((m) => <TabsTrigger key={m.value} value={m.value}>{m.label}</TabsTrigger>)}
            </TabsList>
            <ZoomControls zoom={zoom} id={`zoom-${job.id}`} />
          </div>
          <TabsContent value="split" className="mt-3">
            <SplitView {...view} split={split} onSplit={setSplit} />
          </TabsContent>
          <TabsContent value="overlay" className="mt-3">
            <OverlayView {...view} opacity={opacity} onOpacity={setOpacity} />
          </TabsContent>
          <TabsContent value="grid" className="mt-3">
            <GridView {...view} />
          </TabsContent>
        </Tabs>
        <div className="flex flex-wrap items-center gap-2">
          <HoldOriginalButton holding={hold.holding} setHolding={hold.setHolding} />
          <p className="text-xs text-slate-500">
            or hold the space bar · the wheel or a pinch zooms where you point · drag to pan
          </p>
          <p className="sr-only" aria-live="polite" data-testid="compare-showing">
            {hold.holding ? "Showing the original" : ""}
          </p>
        </div>
        {job.format === "jxl" && (
          <p role="note" className="text-sm text-slate-700" data-testid="compare-jxl-note">
            JPEG XL (shown by its JPEG: the same pixels): the file holds this JPEG losslessly and gives it back byte for
            byte.
          </p>
        )}
        <QualityScores job={job} />
        {renderLivePreview && (
          <div className="space-y-3">
            <LivePreviewButton
              filename={job.filename}
              open={previewing}
              onToggle={() => setPreviewing(!previewing)}
            />
            {previewing && renderLivePreview(() => setPreviewing(false))}
          </div>
        )}
        {onClose && (
          // Phones: a bar at the bottom, where the thumb is and where notices (at the top) never cover it.
          <div className="sticky bottom-0 -mx-2 -mb-2 mt-auto flex items-center justify-between gap-2 border-t border-slate-200 bg-white p-2 sm:hidden">
            <p className="min-w-0 truncate text-sm font-semibold">{job.filename}</p>
            <DialogClose size="sm" variant="secondary">Close</DialogClose>
          </div>
        )}
      </section>
    </Dialog>
  );
}
