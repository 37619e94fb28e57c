import { useLayoutEffect, useRef, useState } from "react";
import { SplitDivider } from "../../../components/ui/split-divider.tsx";
import type { PreviewState } from "../lib/preview-engine.ts";
import type { PreviewViewport } from "../lib/use-preview-viewport.ts";

/**
 * The photo at 1:1, dragged to move: the original's region left of a draggable divider (raw pixels: no
 * re-encode of the original), the encode with these settings right of it, each as it arrived.
 */
export function PreviewView(
  { state, viewport, filename, formatLabel }: {
    state: PreviewState;
    viewport: PreviewViewport;
    filename: string;
    /** The output format's label, over the encode. */
    formatLabel: string;
  },
) {
  const { viewRef, viewHeight, plan, left, top, panHandlers } = viewport;
  const [split, setSplit] = useState(50);
  const originalRef = useRef<HTMLCanvasElement>(null);
  const crop = state.crop;
  useLayoutEffect(() => {
    const canvas = originalRef.current;
    if (!canvas || !crop) return;
    canvas.width = crop.region.width;
    canvas.height = crop.region.height;
    canvas.getContext("2d")?.putImageData(new ImageData(crop.original, crop.region.width, crop.region.height), 0, 0);
  }, [crop]);
  const place = crop
    ? {
      left: crop.region.x - left,
      top: crop.region.y - top,
      width: crop.region.width,
      height: crop.region.height,
    }
    : undefined;

  return (
    <div
      ref={viewRef}
      className="relative w-full cursor-grab touch-none overflow-hidden rounded-md bg-slate-200"
      style={{ height: viewHeight }}
      {...panHandlers}
      data-testid="live-preview-view"
    >
      {crop && (
        <>
          <canvas
            ref={originalRef}
            role="img"
            aria-label={`${filename}, the original${plan ? " resized" : ""}, at 1:1`}
            className="absolute max-w-none select-none"
            style={place}
            data-testid="live-preview-original"
          />
          <div className="absolute inset-0" style={{ clipPath: `inset(0 0 0 ${split}%)` }}>
            <img
              src={crop.url}
              alt={`${filename} with these settings, at 1:1`}
              draggable={false}
              className="absolute max-w-none select-none"
              style={place}
              data-testid="live-preview-crop"
            />
          </div>
          <span className="pointer-events-none absolute left-2 top-2 rounded bg-slate-900/70 px-1.5 py-0.5 text-xs text-white">
            Original
          </span>
          <span className="pointer-events-none absolute right-2 top-2 rounded bg-slate-900/70 px-1.5 py-0.5 text-xs text-white">
            {formatLabel}
          </span>
          <SplitDivider split={split} onSplit={setSplit} frame={() => viewRef.current?.getBoundingClientRect()} />
        </>
      )}
      {state.status === "loading" && (
        <p className="absolute inset-0 grid place-items-center text-sm text-slate-600">Loading the original…</p>
      )}
      {state.status === "error" && (
        <p role="alert" className="absolute inset-0 grid place-items-center p-3 text-sm text-red-700">
          {state.error ?? "The preview could not start"}
        </p>
      )}
    </div>
  );
}
