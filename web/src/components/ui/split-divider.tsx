import { type KeyboardEvent, useRef } from "react";

const clampPercent = (v: number) => Math.max(0, Math.min(100, v));

/**
 * The divider of a split view (Compare, the live preview): a slider from 0 to 100 (% of the frame shown as the
 * original), dragged with a pointer or moved with the arrow keys. `frame` gives the box the percentage is of.
 * Marked `data-no-pan` so a view that pans on drag leaves its pointer alone.
 */
export function SplitDivider(
  { split, onSplit, frame, label = "Split position" }: {
    split: number;
    onSplit: (v: number) => void;
    frame: () => DOMRect | undefined;
    label?: string;
  },
) {
  const dragging = useRef(false);
  const fromPointer = (clientX: number) => {
    const rect = frame();
    if (rect && rect.width > 0) onSplit(clampPercent(Math.round(((clientX - rect.left) / rect.width) * 100)));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 10 : 1;
    const next: Record<string, number> = {
      ArrowLeft: split - step,
      ArrowDown: split - step,
      ArrowRight: split + step,
      ArrowUp: split + step,
      PageDown: split - 10,
      PageUp: split + 10,
      Home: 0,
      End: 100,
    };
    const v = next[e.key];
    if (v === undefined) return;
    e.preventDefault();
    e.stopPropagation();
    onSplit(clampPercent(v));
  };
  return (
    <div
      data-no-pan
      role="slider"
      tabIndex={0}
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={split}
      aria-valuetext={`${split}% original`}
      aria-orientation="horizontal"
      onKeyDown={onKeyDown}
      onPointerDown={(e) => {
        e.stopPropagation();
        dragging.current = true;
        e.currentTarget.setPointerCapture(e.pointerId);
      }}
      onPointerMove={(e) => dragging.current && fromPointer(e.clientX)}
      onPointerUp={() => (dragging.current = false)}
      onPointerCancel={() => (dragging.current = false)}
      className="absolute inset-y-0 z-10 flex w-6 -translate-x-1/2 cursor-ew-resize touch-none justify-center focus-visible:outline-2 focus-visible:outline-brand-600"
      style={{ left: `${split}%` }}
    >
      <span className="h-full w-0.5 bg-white shadow-[0_0_0_1px_rgba(15,23,42,0.4)]" />
      <span className="absolute top-1/2 flex h-7 w-7 -translate-y-1/2 items-center justify-center rounded-full border border-slate-300 bg-white text-xs text-slate-600 shadow">
        ↔
      </span>
    </div>
  );
}
