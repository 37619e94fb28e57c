import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { LivePreviewButton } from "../../../components/live-preview-button.tsx";
import { type Job, withSsimulacra2 } from "../../../../../contract/jobs.ts";
import { Button } from "../../../components/ui/button.tsx";
import { formatBytes } from "../../../../../contract/format-bytes.ts";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/tabs.tsx";
import {
  clampPan,
  clampScale,
  COMPARE_MODES,
  type CompareMode,
  type Pan,
  panAround,
  scaleBounds,
  scaleDown,
  scaleLabel,
  scaleUp,
  SPLIT_DEFAULT,
  ZOOM_MAX,
  ZOOM_MIN,
  ZOOM_STEP,
} from "../lib/view-state.ts";
import { GridView, OverlayView, SplitView, type ViewProps } from "./compare-views.tsx";
import { QualityScores } from "./quality-scores.tsx";

const CENTRE: Pan = { x: 0, y: 0 };

/** Device pixels per CSS pixel, followed when it changes (browser zoom, another screen). */
function useDevicePixelRatio(): number {
  const [dpr, setDpr] = useState(() => globalThis.devicePixelRatio || 1);
  useEffect(() => {
    let media: MediaQueryList | null = null;
    const update = () => {
      const next = globalThis.devicePixelRatio || 1;
      setDpr(next);
      media?.removeEventListener("change", update);
      media = matchMedia(`(resolution: ${next}dppx)`);
      media.addEventListener("change", update);
    };
    update();
    addEventListener("resize", update);
    return () => {
      media?.removeEventListener("change", update);
      removeEventListener("resize", update);
    };
  }, []);
  return dpr;
}

/** "Compressed · 245 KB · 84.1": the result's size and its SSIMULACRA 2 score (when measured). */
export function compressedLabel(job: Job): string {
  const size = formatBytes(job.compressedSize ?? job.originalSize);
  const ssim = withSsimulacra2(job.scores)?.ssimulacra2;
  return typeof ssim === "number" ? `Compressed · ${size} · ${ssim.toFixed(1)}` : `Compressed · ${size}`;
}

/** Keys that a focused control uses for itself: the space bar there is not "hold to see original". */
const OWNS_SPACE = 'button:not([data-hold]), a[href], [role="tab"], input:not([type="range"]), select, textarea';

/**
 * A modal dialog (issue 24 item 2) opened over the page near the top of the window, so it is
 * where the eyes are: Esc closes it, Tab stays inside it and focus goes back to the opener.
 */
function useModal(onClose: (() => void) | undefined) {
  const dialog = useRef<HTMLDialogElement>(null);
  const latest = useRef(onClose);
  latest.current = onClose;
  useLayoutEffect(() => {
    const el = dialog.current;
    if (!el) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!el.open) el.showModal();
    el.focus();
    const closed = () => latest.current?.();
    el.addEventListener("close", closed);
    return () => {
      el.removeEventListener("close", closed);
      if (el.open) el.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  // Tab from the last control goes to the first, Shift+Tab from the first to the last.
  const trapTab = (e: KeyboardEvent<HTMLDialogElement>) => {
    const el = dialog.current;
    if (e.key !== "Tab" || !el) return;
    const focusable = [...el.querySelectorAll<HTMLElement>(
      'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])',
    )].filter((n) => n.getClientRects().length > 0);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    const active = document.activeElement;
    if (e.shiftKey && (active === first || active === el)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && active === last) {
      e.preventDefault();
      first.focus();
    }
  };
  return { dialog, trapTab, close: () => dialog.current?.close() };
}

/**
 * Compare one completed job: split / overlay / grid, in a modal dialog. The frame takes the
 * image's aspect ratio; zoom is the true scale against the image's own pixels on the screen's
 * device pixels ("Fit", "1:1", 25% steps, the wheel and a pinch around the pointer), kept with
 * the pan above the views so switching views keeps them. Holding "Hold to see original" (or the
 * space bar) shows the original. Below 640 px the dialog fills the screen, with a Close bar at
 * the bottom.
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
  // null = Fit: follows the frame when the window changes size.
  const [scaleRaw, setScaleRaw] = useState<number | null>(null);
  const [pan, setPanRaw] = useState<Pan>(CENTRE);
  const [split, setSplit] = useState(SPLIT_DEFAULT);
  const [opacity, setOpacity] = useState(50);
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(
    job.width && job.height ? { width: job.width, height: job.height } : null,
  );
  const [frameWidth, setFrameWidth] = useState(0);
  const [holding, setHolding] = useState(false);
  const dpr = useDevicePixelRatio();
  const modal = useModal(onClose);

  // The scale is device pixels per image pixel: 1:1 puts each image pixel on one screen pixel.
  const imageWidth = natural?.width ?? 1;
  const fit = frameWidth > 0 ? (frameWidth * dpr) / imageWidth : 1;
  const scale = scaleRaw ?? fit;
  const relative = scale / fit;
  const bounds = scaleBounds(fit);

  const setScale = (s: number | null) => {
    const next = s === null ? null : clampScale(s, fit);
    setScaleRaw(next);
    setPanRaw((p) => clampPan(p, ((next ?? fit) / fit) * 100));
  };
  const setPan = (p: Pan) => setPanRaw(clampPan(p, relative * 100));
  /** A new scale that keeps the image point under `at` where it is (from the scale and pan `from`). */
  const zoomAround = (next: number, at: Pan, from: { scale: number; pan: Pan } = { scale, pan }) => {
    const s = clampScale(next, fit);
    setScaleRaw(s);
    setPanRaw(clampPan(panAround(from.pan, s / from.scale, at), (s / fit) * 100));
  };
  const pinchBase = useRef({ scale, pan, at: CENTRE });
  const onPinch = (factor: number, start: boolean, at: Pan) => {
    if (start) pinchBase.current = { scale, pan, at };
    else zoomAround(pinchBase.current.scale * factor, pinchBase.current.at, pinchBase.current);
  };
  const onWheelZoom = (steps: number, at: Pan) => {
    let next = scale;
    for (let i = 0; i < Math.abs(steps); i++) next = steps > 0 ? scaleUp(next, fit) : scaleDown(next, fit);
    if (Math.abs(next - scale) > 1e-9) zoomAround(next, at);
  };

  // Hold the space bar (where it is not a control's own key) to see the original.
  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    modal.trapTab(e);
    if (e.key !== " " || (e.target as HTMLElement).closest(OWNS_SPACE)) return;
    e.preventDefault();
    setHolding(true);
  };
  const onKeyUp = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key === " ") setHolding(false);
  };
  useEffect(() => {
    const release = () => setHolding(false);
    addEventListener("blur", release);
    return () => removeEventListener("blur", release);
  }, []);
  const onNatural = useCallback((width: number, height: number) => {
    if (width > 0 && height > 0) {
      setNatural((n) => (n && n.width === width && n.height === height ? n : { width, height }));
    }
  }, []);

  const view: ViewProps = {
    originalSrc,
    compressedSrc,
    zoom: relative * 100,
    pan,
    onPan: setPan,
    aspect: natural ? natural.width / natural.height : 4 / 3,
    onFrameWidth: setFrameWidth,
    onNatural,
    onPinch,
    onWheelZoom,
    holding,
    compressedLabel: compressedLabel(job),
  };
  const zoomId = `zoom-${job.id}`;
  const sliderValue = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Math.round((scale * 100) / ZOOM_STEP) * ZOOM_STEP));

  return (
    <dialog
      ref={modal.dialog}
      aria-label={`Compare ${job.filename}`}
      tabIndex={-1}
      data-testid="compare-dialog"
      onKeyDown={onKeyDown}
      onKeyUp={onKeyUp}
      onCancel={() => setHolding(false)}
      className="fixed inset-x-0 top-3 bottom-auto mx-auto my-0 max-h-[calc(100dvh-1.5rem)] w-[min(72rem,calc(100vw-2rem))] max-w-none overflow-y-auto rounded-xl border-0 bg-white p-0 text-slate-900 shadow-2xl outline-none backdrop:bg-slate-900/60 max-sm:top-0 max-sm:h-dvh max-sm:max-h-none max-sm:w-screen max-sm:rounded-none"
    >
      <section
        aria-label={`Compare ${job.filename}`}
        className="space-y-3 bg-slate-50 p-3 max-sm:flex max-sm:min-h-full max-sm:flex-col max-sm:bg-white max-sm:p-2"
        data-testid="compare-panel"
      >
        <div className="flex items-center justify-between gap-2 max-sm:hidden">
          <h2 className="min-w-0 truncate text-base font-semibold" title={job.filename}>{job.filename}</h2>
          <Button size="sm" variant="secondary" onClick={modal.close} aria-keyshortcuts="Escape">Close</Button>
        </div>
        <Tabs value={mode} onValueChange={(v) => setMode(v as CompareMode)}>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <TabsList aria-label="Compare view" className="w-full grid-cols-3 sm:w-64">
              {COMPARE_MODES.map((m) => <TabsTrigger key={m.value} value={m.value}>{m.label}</TabsTrigger>)}
            </TabsList>
            <div className="flex w-full flex-wrap items-center gap-2 sm:w-auto">
              <Button
                size="sm"
                variant={scaleRaw === null ? "primary" : "secondary"}
                aria-pressed={scaleRaw === null}
                onClick={() => {
                  setScaleRaw(null);
                  setPanRaw(CENTRE);
                }}
              >
                Fit
              </Button>
              <Button
                size="sm"
                variant={scaleRaw === 1 ? "primary" : "secondary"}
                aria-pressed={scaleRaw === 1}
                onClick={() => setScale(1)}
              >
                1:1
              </Button>
              <div className="flex min-w-0 flex-1 items-center gap-2">
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label="Zoom out"
                  disabled={scale <= bounds.min + 1e-6}
                  onClick={() => setScale(scaleDown(scale, fit))}
                >
                  −
                </Button>
                <label htmlFor={zoomId} className="sr-only">Zoom</label>
                <input
                  id={zoomId}
                  type="range"
                  min={ZOOM_MIN}
                  max={ZOOM_MAX}
                  step={ZOOM_STEP}
                  value={sliderValue}
                  aria-valuetext={`${scaleLabel(scale)} of the image's pixels`}
                  onChange={(e) => setScale(Number(e.target.value) / 100)}
                  className="w-full min-w-0 flex-1 accent-brand-600 sm:w-28"
                />
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label="Zoom in"
                  disabled={scale >= bounds.max - 1e-6}
                  onClick={() => setScale(scaleUp(scale, fit))}
                >
                  +
                </Button>
                <output
                  htmlFor={zoomId}
                  className="w-12 text-right text-sm tabular-nums"
                  data-testid="zoom-value"
                  title="Scale against the image's own pixels (100% = 1:1)"
                >
                  {scaleLabel(scale)}
                </output>
              </div>
            </div>
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
          <Button
            size="sm"
            variant={holding ? "primary" : "secondary"}
            data-hold
            aria-pressed={holding}
            aria-keyshortcuts="Space"
            className="touch-none select-none"
            onPointerDown={(e) => {
              if (e.button !== 0) return;
              try {
                e.currentTarget.setPointerCapture(e.pointerId);
              } catch { /* a synthetic pointer cannot be captured */ }
              setHolding(true);
            }}
            onPointerUp={() => setHolding(false)}
            onPointerCancel={() => setHolding(false)}
            onLostPointerCapture={() => setHolding(false)}
            onContextMenu={(e) => e.preventDefault()}
            onKeyDown={(e) => {
              if (e.key === "Enter") setHolding(true);
            }}
            onKeyUp={(e) => {
              if (e.key === "Enter") setHolding(false);
            }}
          >
            Hold to see original
          </Button>
          <p className="text-xs text-slate-500">
            or hold the space bar · the wheel or a pinch zooms where you point · drag to pan
          </p>
          <p className="sr-only" aria-live="polite" data-testid="compare-showing">
            {holding ? "Showing the original" : ""}
          </p>
        </div>
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
            <Button size="sm" variant="secondary" onClick={modal.close}>Close</Button>
          </div>
        )}
      </section>
    </dialog>
  );
}
