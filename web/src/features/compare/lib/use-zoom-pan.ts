import { useCallback, useEffect, useRef, useState } from "react";
import {
  clampPan,
  clampScale,
  type Pan,
  panAround,
  scaleBounds,
  scaleDown,
  scaleUp,
  ZOOM_MAX,
  ZOOM_MIN,
  ZOOM_STEP,
} from "./view-state.ts";

const CENTRE: Pan = { x: 0, y: 0 };
type Size = { width: number; height: number };

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

/**
 * Compare's zoom and pan, kept above the views so switching views keeps them. The scale is device pixels
 * per image pixel (1 = 1:1, each image pixel on one screen pixel); Fit (`fitted`) follows the frame when the
 * window changes size. 25% steps, the wheel and a pinch zoom around the pointer; the pan stays within the
 * image. `natural` is the image's size, as the job says until the image reports its own.
 */
export function useZoomPan(initial: Size | null) {
  // null = Fit: follows the frame when the window changes size.
  const [scaleRaw, setScaleRaw] = useState<number | null>(null);
  const [pan, setPanRaw] = useState<Pan>(CENTRE);
  const [natural, setNatural] = useState<Size | null>(initial);
  const [frameWidth, setFrameWidth] = useState(0);
  const dpr = useDevicePixelRatio();

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
  /** A new scale that keeps the image point under `at` where it is (from the scale and pan `from`). */
  const zoomAround = (next: number, at: Pan, from: { scale: number; pan: Pan } = { scale, pan }) => {
    const s = clampScale(next, fit);
    setScaleRaw(s);
    setPanRaw(clampPan(panAround(from.pan, s / from.scale, at), (s / fit) * 100));
  };
  const pinchBase = useRef({ scale, pan, at: CENTRE });
  const onNatural = useCallback((width: number, height: number) => {
    if (width > 0 && height > 0) {
      setNatural((n) => (n && n.width === width && n.height === height ? n : { width, height }));
    }
  }, []);

  return {
    scale,
    /** Fit is on (the scale follows the frame), or the scale is exactly 1:1. */
    fitted: scaleRaw === null,
    oneToOne: scaleRaw === 1,
    canZoomOut: scale > bounds.min + 1e-6,
    canZoomIn: scale < bounds.max - 1e-6,
    /** The slider's value: the scale in %, on its 25% steps and within its range. */
    sliderValue: Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Math.round((scale * 100) / ZOOM_STEP) * ZOOM_STEP)),
    setScale,
    fitView: () => {
      setScaleRaw(null);
      setPanRaw(CENTRE);
    },
    zoomIn: () => setScale(scaleUp(scale, fit)),
    zoomOut: () => setScale(scaleDown(scale, fit)),
    /** What the views take: the zoom against Fit in %, the pan, the frame's aspect and their callbacks. */
    view: {
      zoom: relative * 100,
      pan,
      onPan: (p: Pan) => setPanRaw(clampPan(p, relative * 100)),
      aspect: natural ? natural.width / natural.height : 4 / 3,
      onFrameWidth: setFrameWidth,
      onNatural,
      onPinch: (factor: number, start: boolean, at: Pan) => {
        if (start) pinchBase.current = { scale, pan, at };
        else zoomAround(pinchBase.current.scale * factor, pinchBase.current.at, pinchBase.current);
      },
      onWheelZoom: (steps: number, at: Pan) => {
        let next = scale;
        for (let i = 0; i < Math.abs(steps); i++) next = steps > 0 ? scaleUp(next, fit) : scaleDown(next, fit);
        if (Math.abs(next - scale) > 1e-9) zoomAround(next, at);
      },
    },
  };
}

export type ZoomPan = ReturnType<typeof useZoomPan>;
