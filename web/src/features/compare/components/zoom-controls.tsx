import { Button } from "../../../components/ui/button.tsx";
import type { ZoomPan } from "../lib/use-zoom-pan.ts";
import { scaleLabel, ZOOM_MAX, ZOOM_MIN, ZOOM_STEP } from "../lib/view-state.ts";

/** Fit, 1:1, the 25% steps and the slider, with the scale against the image's own pixels. */
export function ZoomControls({ zoom, id }: { zoom: ZoomPan; id: string }) {
  return (
    <div className="flex w-full flex-wrap items-center gap-2 sm:w-auto">
      <Button
        size="sm"
        variant={zoom.fitted ? "primary" : "secondary"}
        aria-pressed={zoom.fitted}
        onClick={zoom.fitView}
      >
        Fit
      </Button>
      <Button
        size="sm"
        variant={zoom.oneToOne ? "primary" : "secondary"}
        aria-pressed={zoom.oneToOne}
        onClick={() => zoom.setScale(1)}
      >
        1:1
      </Button>
      <div className="flex min-w-0 flex-1 items-center gap-2">
        <Button size="sm" variant="secondary" aria-label="Zoom out" disabled={!zoom.canZoomOut} onClick={zoom.zoomOut}>
          −
        </Button>
        <label htmlFor={id} className="sr-only">Zoom</label>
        <input
          id={id}
          type="range"
          min={ZOOM_MIN}
          max={ZOOM_MAX}
          step={ZOOM_STEP}
          value={zoom.sliderValue}
          aria-valuetext={`${scaleLabel(zoom.scale)} of the image's pixels`}
          onChange={(e) => zoom.setScale(Number(e.target.value) / 100)}
          className="w-full min-w-0 flex-1 accent-brand-600 sm:w-28"
        />
        <Button size="sm" variant="secondary" aria-label="Zoom in" disabled={!zoom.canZoomIn} onClick={zoom.zoomIn}>
          +
        </Button>
        <output
          htmlFor={id}
          className="w-12 text-right text-sm tabular-nums"
          data-testid="zoom-value"
          title="Scale against the image's own pixels (100% = 1:1)"
        >
          {scaleLabel(zoom.scale)}
        </output>
      </div>
    </div>
  );
}
