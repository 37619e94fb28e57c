import {
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  type SyntheticEvent,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { cn } from "../../../lib/cn.ts";
import { SplitDivider } from "../../../components/ui/split-divider.tsx";
import { PLACEHOLDER_JPEG } from "../lib/placeholder.ts";
import { frameSize, imageTransform, type Pan, WHEEL_STEP_PX } from "../lib/view-state.ts";

export interface ViewProps {
  originalSrc: string;
  compressedSrc: string;
  /** Scale relative to Fit, in percent (100 = the image fills the frame). */
  zoom: number;
  pan: Pan;
  onPan: (pan: Pan) => void;
  /** The image's width over its height: the frame takes it. */
  aspect: number;
  /** The frame's width in CSS pixels, reported whenever it changes (for the true scale). */
  onFrameWidth: (width: number) => void;
  /** The compressed image's own pixel size, once it loaded. */
  onNatural: (width: number, height: number) => void;
  /** Two-finger pinch: `start` once, then the distance ratio since; `at` is where the fingers met. */
  onPinch: (factor: number, start: boolean, at: Pan) => void;
  /** The wheel: `steps` 25% steps (positive = in) around the pointer `at`. */
  onWheelZoom: (steps: number, at: Pan) => void;
  /** "Hold to see original": the original is drawn over every pane. */
  holding: boolean;
  /** "Compressed · 245 KB · 84.1": the result's size and SSIMULACRA 2 score. */
  compressedLabel: string;
}

/** An image that falls back to the placeholder JPEG when it cannot load. */
function CompareImage(
  { src, alt, zoom, pan, className, style, onNatural }: {
    src: string;
    alt: string;
    zoom: number;
    pan: Pan;
    className?: string;
    style?: React.CSSProperties;
    onNatural?: (width: number, height: number) => void;
  },
) {
  const [failed, setFailed] = useState(false);
  const loaded = (e: SyntheticEvent<HTMLImageElement>) => {
    if (!failed) onNatural?.(e.currentTarget.naturalWidth, e.currentTarget.naturalHeight);
  };
  return (
    <img
      src={failed ? PLACEHOLDER_JPEG : src}
      alt={alt}
      draggable={false}
      data-placeholder={failed ? "true" : undefined}
      onLoad={loaded}
      onError={() => setFailed(true)}
      className={cn("pointer-events-none absolute inset-0 h-full w-full select-none", className ?? "object-contain")}
      style={{ transform: imageTransform(zoom, pan), transformOrigin: "center", ...style }}
    />
  );
}

/**
 * The original, scaled the way the result was (issue 30): the frame has the result's shape, and a
 * resized result's crop is centred (`fit: cover`), so covering the frame from the centre shows exactly
 * the pixels the result was made from; for an uncropped result the shapes agree and nothing is cut.
 */
function OriginalImage(props: Omit<Parameters<typeof CompareImage>[0], "className">) {
  return <CompareImage {...props} className="object-cover" />;
}

const PAN_KEY_STEP = 0.05;

/** The frame's share of the window's height: room is left for the controls and the scores. */
const MAX_FRAME_VH = 0.62;

/**
 * A frame with the image's aspect ratio that pans its images by dragging (mouse or one finger)
 * or with the arrow keys, and zooms with a two-finger pinch; pan and zoom are shared by every
 * view of the job (lifted state).
 */
function Viewport(
  { label, pan, onPan, aspect, onFrameWidth, onPinch, onWheelZoom, holding, originalSrc, zoom, children, className }: {
    label: string;
    pan: Pan;
    onPan: (pan: Pan) => void;
    aspect: number;
    onFrameWidth: (width: number) => void;
    onPinch: (factor: number, start: boolean, at: Pan) => void;
    onWheelZoom: (steps: number, at: Pan) => void;
    holding: boolean;
    originalSrc: string;
    zoom: number;
    children: ReactNode;
    className?: string;
  },
) {
  const outer = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  // The wheel zooms around the pointer, one 25% step per notch; a native listener, since React's
  // wheel listener is passive and the page must not scroll under the zoom.
  const wheel = useRef({ onWheelZoom, acc: 0 });
  wheel.current.onWheelZoom = onWheelZoom;
  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const px = e.deltaMode === WheelEvent.DOM_DELTA_LINE ? 40 : e.deltaMode === WheelEvent.DOM_DELTA_PAGE ? 800 : 1;
      const w = wheel.current;
      w.acc += e.deltaY * px;
      const steps = Math.trunc(w.acc / WHEEL_STEP_PX);
      if (steps === 0) return;
      w.acc -= steps * WHEEL_STEP_PX;
      w.onWheelZoom(-Math.sign(steps) * Math.min(4, Math.abs(steps)), pointAt(el, e.clientX, e.clientY));
    };
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => el.removeEventListener("wheel", onWheel);
  }, []);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  useLayoutEffect(() => {
    const el = outer.current;
    if (!el) return;
    const measure = () => {
      const next = frameSize(el.clientWidth, aspect, Math.max(160, innerHeight * MAX_FRAME_VH));
      setSize((s) => (s && Math.abs(s.width - next.width) < 0.5 && Math.abs(s.height - next.height) < 0.5 ? s : next));
      onFrameWidth(next.width);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    addEventListener("resize", measure);
    return () => {
      observer.disconnect();
      removeEventListener("resize", measure);
    };
  }, [aspect, onFrameWidth]);

  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const drag = useRef<{ x: number; y: number; start: Pan; w: number; h: number } | null>(null);
  const pinch = useRef<number | null>(null);
  const distance = () => {
    const [a, b] = [...pointers.current.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };
  const midpoint = (el: HTMLElement): Pan => {
    const [a, b] = [...pointers.current.values()];
    return a && b ? pointAt(el, (a.x + b.x) / 2, (a.y + b.y) / 2) : { x: 0, y: 0 };
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest("[data-no-pan]")) return;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    try {
      e.currentTarget.setPointerCapture(e.pointerId);
    } catch { /* a synthetic pointer cannot be captured */ }
    if (pointers.current.size === 2) {
      drag.current = null;
      pinch.current = distance();
      onPinch(1, true, midpoint(e.currentTarget));
      return;
    }
    const rect = e.currentTarget.getBoundingClientRect();
    drag.current = { x: e.clientX, y: e.clientY, start: pan, w: rect.width, h: rect.height };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!pointers.current.has(e.pointerId)) return;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pinch.current && pointers.current.size === 2) {
      const d = distance();
      if (d > 0) onPinch(d / pinch.current, false, midpoint(e.currentTarget));
      return;
    }
    const d = drag.current;
    if (!d) return;
    onPan({ x: d.start.x + (e.clientX - d.x) / d.w, y: d.start.y + (e.clientY - d.y) / d.h });
  };
  const end = (e: PointerEvent<HTMLDivElement>) => {
    pointers.current.delete(e.pointerId);
    if (pointers.current.size < 2) pinch.current = null;
    drag.current = null;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [PAN_KEY_STEP, 0],
      ArrowRight: [-PAN_KEY_STEP, 0],
      ArrowUp: [0, PAN_KEY_STEP],
      ArrowDown: [0, -PAN_KEY_STEP],
    };
    const m = moves[e.key];
    if (!m || e.target !== e.currentTarget) return;
    e.preventDefault();
    onPan({ x: pan.x + m[0], y: pan.y + m[1] });
  };
  return (
    <div ref={outer} className={cn("w-full", className)}>
      <div
        ref={frame}
        role="group"
        aria-label={`${label}. Drag or use the arrow keys to pan; pinch or use the wheel to zoom`}
        tabIndex={0}
        data-testid="compare-frame"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={end}
        onPointerCancel={end}
        onKeyDown={onKeyDown}
        style={size ? { width: size.width, height: size.height } : { aspectRatio: aspect }}
        className="relative mx-auto max-w-full cursor-grab touch-none overflow-hidden rounded-lg bg-[repeating-conic-gradient(#e2e8f0_0_25%,#f8fafc_0_50%)] bg-[length:20px_20px] active:cursor-grabbing focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {children}
        {holding && (
          // Held: the original over everything, at the same zoom and pan.
          <div className="pointer-events-none absolute inset-0 z-20" data-testid="held-original">
            <OriginalImage src={originalSrc} alt="Original (held)" zoom={zoom} pan={pan} />
            <Tag side="left">Original</Tag>
          </div>
        )}
      </div>
    </div>
  );
}

/** A point of the frame as a fraction of its size from its centre (the pan's unit). */
function pointAt(el: HTMLElement, clientX: number, clientY: number): Pan {
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return { x: 0, y: 0 };
  return { x: (clientX - r.left) / r.width - 0.5, y: (clientY - r.top) / r.height - 0.5 };
}

const frameProps = (p: ViewProps) => ({
  pan: p.pan,
  onPan: p.onPan,
  aspect: p.aspect,
  onFrameWidth: p.onFrameWidth,
  onPinch: p.onPinch,
  onWheelZoom: p.onWheelZoom,
  holding: p.holding,
  originalSrc: p.originalSrc,
  zoom: p.zoom,
});

function Tag({ children, side }: { children: ReactNode; side: "left" | "right" }) {
  return (
    <span
      className={cn(
        "pointer-events-none absolute top-2 rounded bg-slate-900/70 px-2 py-0.5 text-xs font-medium text-white",
        side === "left" ? "left-2" : "right-2",
      )}
    >
      {children}
    </span>
  );
}

/** Original on the left, compressed on the right of a draggable, keyboard-operable divider. */
export function SplitView(
  { split, onSplit, ...p }: ViewProps & { split: number; onSplit: (v: number) => void },
) {
  const frame = useRef<HTMLDivElement>(null);
  return (
    <div ref={frame}>
      <Viewport label="Split view" {...frameProps(p)}>
        <OriginalImage src={p.originalSrc} alt="Original" zoom={p.zoom} pan={p.pan} />
        <div className="absolute inset-0" style={{ clipPath: `inset(0 0 0 ${split}%)` }}>
          <CompareImage src={p.compressedSrc} alt="Compressed" zoom={p.zoom} pan={p.pan} onNatural={p.onNatural} />
        </div>
        <Tag side="left">Original</Tag>
        <Tag side="right">Compressed</Tag>
        <SplitDivider
          split={split}
          onSplit={onSplit}
          frame={() => frame.current?.querySelector('[data-testid="compare-frame"]')?.getBoundingClientRect()}
        />
      </Viewport>
    </div>
  );
}

/** The compressed image over the original at an adjustable opacity. */
export function OverlayView(
  { opacity, onOpacity, ...p }: ViewProps & { opacity: number; onOpacity: (v: number) => void },
) {
  return (
    <div className="space-y-2">
      <Viewport label="Overlay view" {...frameProps(p)}>
        <OriginalImage src={p.originalSrc} alt="Original" zoom={p.zoom} pan={p.pan} />
        <CompareImage
          onNatural={p.onNatural}
          src={p.compressedSrc}
          alt="Compressed"
          zoom={p.zoom}
          pan={p.pan}
          style={{ opacity: opacity / 100 }}
        />
        <Tag side="left">Original</Tag>
        <Tag side="right">
          <span data-testid="overlay-compressed-label">{p.compressedLabel}</span>
        </Tag>
      </Viewport>
      <div className="flex items-center gap-3 text-sm">
        <label htmlFor={`overlay-${p.compressedSrc}`} className="shrink-0 text-slate-700">Compressed opacity</label>
        <input
          id={`overlay-${p.compressedSrc}`}
          type="range"
          min={0}
          max={100}
          step={5}
          value={opacity}
          onChange={(e) => onOpacity(Number(e.target.value))}
          className="min-w-0 flex-1 accent-brand-600"
        />
        <span className="w-10 text-right tabular-nums">{opacity}%</span>
      </div>
    </div>
  );
}

/** Original and compressed side by side, zoomed and panned together. */
export function GridView(p: ViewProps) {
  return (
    <div className="grid gap-2 sm:grid-cols-2">
      <Viewport label="Original" {...frameProps(p)}>
        <OriginalImage src={p.originalSrc} alt="Original" zoom={p.zoom} pan={p.pan} />
        <Tag side="left">Original</Tag>
      </Viewport>
      <Viewport label="Compressed" {...frameProps(p)}>
        <CompareImage src={p.compressedSrc} alt="Compressed" zoom={p.zoom} pan={p.pan} onNatural={p.onNatural} />
        <Tag side="left">Compressed</Tag>
      </Viewport>
    </div>
  );
}
