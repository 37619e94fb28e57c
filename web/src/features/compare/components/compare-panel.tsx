import { useState } from "react";
import type { Job } from "../../../../../contract/jobs.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../components/ui/tabs.tsx";
import {
  clampPan,
  clampZoom,
  COMPARE_MODES,
  type CompareMode,
  type Pan,
  SPLIT_DEFAULT,
  ZOOM_DEFAULT,
  ZOOM_MAX,
  ZOOM_MIN,
  ZOOM_STEP,
} from "../lib/view-state.ts";
import { GridView, OverlayView, SplitView } from "./compare-views.tsx";
import { QualityScores } from "./quality-scores.tsx";

const CENTRE: Pan = { x: 0, y: 0 };

/**
 * Compare one completed job: split / overlay / grid. Zoom and pan live here,
 * above the views, so switching views keeps them (the views are synced).
 */
export function ComparePanel(
  { job, originalSrc, compressedSrc }: { job: Job; originalSrc: string; compressedSrc: string },
) {
  const [mode, setMode] = useState<CompareMode>("split");
  const [zoom, setZoomRaw] = useState(ZOOM_DEFAULT);
  const [pan, setPanRaw] = useState<Pan>(CENTRE);
  const [split, setSplit] = useState(SPLIT_DEFAULT);
  const [opacity, setOpacity] = useState(50);

  const setZoom = (z: number) => {
    const next = clampZoom(z);
    setZoomRaw(next);
    setPanRaw((p) => clampPan(p, next));
  };
  const setPan = (p: Pan) => setPanRaw(clampPan(p, zoom));
  const view = { originalSrc, compressedSrc, zoom, pan, onPan: setPan };
  const zoomId = `zoom-${job.id}`;

  return (
    <section
      aria-label={`Compare ${job.filename}`}
      className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3"
      data-testid="compare-panel"
    >
      <Tabs value={mode} onValueChange={(v) => setMode(v as CompareMode)}>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <TabsList aria-label="Compare view" className="w-full grid-cols-3 sm:w-64">
            {COMPARE_MODES.map((m) => <TabsTrigger key={m.value} value={m.value}>{m.label}</TabsTrigger>)}
          </TabsList>
          <div className="flex w-full items-center gap-2 sm:w-auto">
            <Button
              size="sm"
              variant="secondary"
              aria-label="Zoom out"
              disabled={zoom <= ZOOM_MIN}
              onClick={() => setZoom(zoom - ZOOM_STEP)}
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
              value={zoom}
              aria-valuetext={`${zoom}%`}
              onChange={(e) => setZoom(Number(e.target.value))}
              className="w-full min-w-0 flex-1 accent-brand-600 sm:w-32"
            />
            <Button
              size="sm"
              variant="secondary"
              aria-label="Zoom in"
              disabled={zoom >= ZOOM_MAX}
              onClick={() => setZoom(zoom + ZOOM_STEP)}
            >
              +
            </Button>
            <output htmlFor={zoomId} className="w-12 text-right text-sm tabular-nums" data-testid="zoom-value">
              {zoom}%
            </output>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => {
                setZoomRaw(ZOOM_DEFAULT);
                setPanRaw(CENTRE);
              }}
            >
              Reset
            </Button>
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
    </section>
  );
}
