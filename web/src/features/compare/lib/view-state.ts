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

/**
 * True scale (issue 15 item 8): screen pixels per image pixel, 1 = 1:1. The frame takes the
 * image's aspect ratio, so "Fit" is the frame width over the image width, and the images'
 * transform scales relative to that fit.
 */
export const SCALE_STEP = ZOOM_STEP / 100;
export const scaleBounds = (fit: number) => ({
  min: Math.min(ZOOM_MIN / 100, fit),
  max: Math.max(ZOOM_MAX / 100, fit),
});
const EPS = 1e-6;
/** The next 25% step above the scale (or the maximum). */
export const scaleUp = (scale: number, fit: number) =>
  Math.min(scaleBounds(fit).max, (Math.floor(scale / SCALE_STEP + EPS) + 1) * SCALE_STEP);
/** The next 25% step below the scale (or the minimum). */
export const scaleDown = (scale: number, fit: number) =>
  Math.max(scaleBounds(fit).min, (Math.ceil(scale / SCALE_STEP - EPS) - 1) * SCALE_STEP);
export const clampScale = (scale: number, fit: number) => {
  const { min, max } = scaleBounds(fit);
  return clamp(scale, min, max);
};
/** "38%": the scale as the label shows it. */
export const scaleLabel = (scale: number) => `${Math.round(scale * 100)}%`;

/** The frame for an image of `aspect` (width / height) in `available` width, at most `maxHeight` tall. */
export function frameSize(available: number, aspect: number, maxHeight: number): { width: number; height: number } {
  const width = Math.max(0, Math.min(available, maxHeight * aspect));
  return { width, height: aspect > 0 ? width / aspect : 0 };
}

/**
 * The pan that keeps the image point under `at` (a point of the frame, as a fraction of its
 * size from its centre, like the pan) in place when the scale changes by `ratio` (new / old).
 */
export function panAround(pan: Pan, ratio: number, at: Pan): Pan {
  return { x: at.x - ratio * (at.x - pan.x), y: at.y - ratio * (at.y - pan.y) };
}

/** Wheel pixels per 25% step: one notch of a mouse wheel (about 100 px) is one step. */
export const WHEEL_STEP_PX = 50;
