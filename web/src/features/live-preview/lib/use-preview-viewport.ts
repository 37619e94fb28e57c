import { type PointerEvent, useLayoutEffect, useRef, useState } from "react";
import { planResize, type ResizeBox } from "../../../../../codecs/image/resize.ts";
import type { CropRequest } from "./protocol.ts";
import type { PreviewState } from "./preview-engine.ts";

const VIEW_HEIGHT = 320;
/** Crops start on a 16-px grid: ask for a little more than the view so it is always covered. */
const SLACK = 16;

type Point = { x: number; y: number };

/**
 * The live preview's view of the photo at 1:1: its width follows the element (`viewRef`), its centre is in
 * the image's pixels (the middle until the photo is dragged), and the image is the photo as the settings make
 * it (resized when they resize, as the job's original is). `region` is the crop the engine encodes.
 */
export function usePreviewViewport(state: PreviewState, resize: ResizeBox) {
  const viewRef = useRef<HTMLDivElement>(null);
  const [viewWidth, setViewWidth] = useState(0);
  useLayoutEffect(() => {
    const el = viewRef.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setViewWidth(Math.round(entry!.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const [centre, setCentre] = useState<Point | null>(null);
  const plan = state.status === "ready" ? planResize(state.width, state.height, resize) : null;
  const imageWidth = plan?.width ?? state.width, imageHeight = plan?.height ?? state.height;
  const viewHeight = Math.min(VIEW_HEIGHT, imageHeight || VIEW_HEIGHT);
  const c = centre ?? { x: imageWidth / 2, y: imageHeight / 2 };
  const left = Math.round(Math.max(0, Math.min(imageWidth - viewWidth, c.x - viewWidth / 2)));
  const top = Math.round(Math.max(0, Math.min(imageHeight - viewHeight, c.y - viewHeight / 2)));
  const region: CropRequest = { x: left, y: top, width: viewWidth + SLACK, height: viewHeight + SLACK };

  // Dragging the photo moves the centre (the divider is left to itself).
  const drag = useRef<{ x: number; y: number; centre: Point } | null>(null);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest("[data-no-pan]")) return; // the divider
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, centre: { x: left + viewWidth / 2, y: top + viewHeight / 2 } };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    setCentre({ x: d.centre.x - (e.clientX - d.x), y: d.centre.y - (e.clientY - d.y) });
  };
  const onPointerUp = () => void (drag.current = null);

  return {
    viewRef,
    viewWidth,
    viewHeight,
    /** The resize the settings make, or null at the photo's own size. */
    plan,
    imageWidth,
    imageHeight,
    /** The view's top-left corner in the image's pixels. */
    left,
    top,
    region,
    panHandlers: { onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp },
  };
}

export type PreviewViewport = ReturnType<typeof usePreviewViewport>;
