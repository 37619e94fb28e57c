/** Compare view constants (spec §9) and the pure rules for zoom and panning. */
export const ZOOM_MIN = 25;
export const ZOOM_MAX = 400;
export const ZOOM_STEP = 25;
export const ZOOM_DEFAULT = 100;
export const SPLIT_DEFAULT = 50;

export type CompareMode = "split" | "overlay" | "grid";
export const COMPARE_MODES: { value: CompareMode; label: string }[] = [
  { value: "split", label: "Split" },
  { value: "overlay", label: "Overlay" },
  { value: "grid", label: "Grid" },
];

/** Pan offset as a fraction of the viewport, so every view (and pane size) shares it. */
export interface Pan {
  x: number;
  y: number;
}

export const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

export const clampZoom = (z: number) => clamp(Math.round(z / ZOOM_STEP) * ZOOM_STEP, ZOOM_MIN, ZOOM_MAX);

/** How far the zoomed image may move before its edge enters the viewport. */
export function clampPan(pan: Pan, zoom: number): Pan {
  const limit = Math.max(0, (zoom / 100 - 1) / 2);
  return { x: clamp(pan.x, -limit, limit), y: clamp(pan.y, -limit, limit) };
}

export const imageTransform = (zoom: number, pan: Pan) =>
  `translate(${pan.x * 100}%, ${pan.y * 100}%) scale(${zoom / 100})`;
