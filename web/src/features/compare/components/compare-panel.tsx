import { useCallback, useRef, useState } from "react";
import type { Job } from "../../../../../contract/jobs.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/tabs.tsx";
import {
  clampPan,
  clampScale,
  COMPARE_MODES,
  type CompareMode,
  type Pan,
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

/**
 * Compare one completed job: split / overlay / grid. The frame takes the image's aspect ratio;
 * zoom is the true scale against the image's own pixels ("Fit", "1:1", 25% steps, pinch on
 * touch), kept with the pan above the views so switching views keeps them. Below 640 px the
 * panel fills the screen, with a Close bar at the bottom.
 */
export function ComparePanel(
  { job, originalSrc, compressedSrc, onClose }: {
    job: Job;
    originalSrc: string;
    compressedSrc: string;
    onClose?: () => void;
  },
) {
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

  const imageWidth = natural?.width ?? 1;
  const fit = frameWidth > 0 ? frameWidth / imageWidth : 1;
  const scale = scaleRaw ?? fit;
  const relative = scale / fit;
  const bounds = scaleBounds(fit);

  const setScale = (s: number | null) => {
    const next = s === null ? null : clampScale(s, fit);
    setScaleRaw(next);
    setPanRaw((p) => clampPan(p, ((next ?? fit) / fit) * 100));
  };
  const setPan = (p: Pan) => setPanRaw(clampPan(p, relative * 100));
  const pinchBase = useRef(scale);
  const onPinch = (factor: number, start: boolean) => {
    if (start) pinchBase.current = scale;
    else setScale(pinchBase.current * factor);
  };
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
  };
  const zoomId = `zoom-${job.id}`;
  const sliderValue = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Math.round((scale * 100) / ZOOM_STEP) * ZOOM_STEP));

  return (
    <section
      aria-label={`Compare ${job.filename}`}
      className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3 max-sm:fixed max-sm:inset-0 max-sm:flex max-sm:flex-col max-sm:z-[60] max-sm:overflow-y-auto max-sm:rounded-none max-sm:border-0 max-sm:bg-white max-sm:p-2"
      data-testid="compare-panel"
    >
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
      <QualityScores job={job} />
      {onClose && (
        // Phones: a bar at the bottom, where the thumb is and where notices (at the top) never cover it.
        <div className="sticky bottom-0 -mx-2 -mb-2 mt-auto flex items-center justify-between gap-2 border-t border-slate-200 bg-white p-2 sm:hidden">
          <p className="min-w-0 truncate text-sm font-semibold">{job.filename}</p>
          <Button size="sm" variant="secondary" onClick={onClose}>Close</Button>
        </div>
      )}
    </section>
  );
}
