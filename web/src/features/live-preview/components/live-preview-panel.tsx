import {
  type PointerEvent,
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { isPremium } from "../../../../../contract/accounts.ts";
import { type Job, resultFormat, sizeReduction } from "../../../../../contract/jobs.ts";
import { codecLabel } from "../../../../../contract/codec-labels.ts";
import { shownScore } from "../../../../../contract/score-words.ts";
import {
  appliesTo,
  fittingEncoder,
  FORMATS,
  type FormatSetting,
  OUTPUT_FORMATS,
} from "../../../../../contract/formats.ts";
import {
  CHROMA_SUBSAMPLINGS,
  type CompressSettings,
  type Encoder,
  ENCODERS,
  type OutputFormat,
  QUALITY_RANGE,
  type RecompressSettings,
  type Target,
  TARGET_KB_RANGE,
  TARGET_SCORE_RANGE,
} from "../../../../../contract/settings.ts";
import { Button } from "../../../components/ui/button.tsx";
import { SplitDivider } from "../../../components/ui/split-divider.tsx";
import { ResizeFields } from "../../../components/resize-fields.tsx";
import { planResize } from "../../../../../codecs/image/resize.ts";
import { TONE_TEXT } from "../../../components/score-word.tsx";
import { cn } from "../../../lib/cn.ts";
import { formatBytes } from "../../../../../contract/format-bytes.ts";
import { useUser } from "../../auth/index.ts";
import { useRecompressBatch } from "../../batches/index.ts";
import { useRecompressJob } from "../../jobs/index.ts";
import { fetchOriginal } from "../data/get-original.ts";
import { PreviewEngine } from "../lib/preview-engine.ts";
import { previewSummary } from "../lib/summary.ts";

const VIEW_HEIGHT = 320;
/** Crops start on a 16-px grid: ask for a little more than the view so it is always covered. */
const SLACK = 16;
const SELECT =
  "h-9 w-full rounded-md border border-slate-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600";
const CHROMA_LABELS = { "4:4:4": "4:4:4", "4:2:2": "4:2:2", "4:2:0": "4:2:0" } as const;

/** The preview's settings: the job's, with one output format (it shows one encode). */
type PreviewSettings = CompressSettings & { format: OutputFormat };

/** The settings as the server takes them: an encoder that fits the format, and a target only on Premium. */
export function sendable(settings: PreviewSettings, premium: boolean): RecompressSettings & { format: OutputFormat } {
  return {
    ...settings,
    encoder: fittingEncoder(settings.format, settings.encoder),
    target: premium ? settings.target : null,
  };
}

/**
 * Live preview (issue 24, item 1): tune one photo's settings against its original, encoded in this browser
 * by the project's own codecs in a Web Worker. Nothing reaches the server while tuning (the original is
 * fetched once); "Apply" re-compresses on the server with exactly the settings on screen.
 */
export function LivePreviewPanel(
  { job, onClose }: { job: Job; onClose?: () => void },
) {
  const ids = useId();
  const { user } = useUser();
  const premium = user ? isPremium(user.subscriptionStatus) : false;
  const [engine] = useState(() => new PreviewEngine(fetchOriginal(job.id)));
  useEffect(() => () => engine.close(), [engine]);
  const state = useSyncExternalStore(engine.subscribe, () => engine.snapshot);
  // One format at a time: a job on format=auto previews the format it was written in.
  const [settings, setSettings] = useState<PreviewSettings>(() => ({
    ...job.settings,
    format: resultFormat(job),
    target: premium ? job.settings.target : null,
  }));
  const update = (patch: Partial<PreviewSettings>) => setSettings((s) => ({ ...s, ...patch }));
  const effective = sendable(settings, premium);

  // The view: its width follows the panel; its centre is in the image's pixels (starts at the middle).
  const viewRef = useRef<HTMLDivElement>(null);
  const [viewWidth, setViewWidth] = useState(0);
  useLayoutEffect(() => {
    const el = viewRef.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setViewWidth(Math.round(entry!.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const [centre, setCentre] = useState<{ x: number; y: number } | null>(null);
  const ready = state.status === "ready";
  // The view is of the photo as the settings make it: resized when they resize (as the job's original is).
  const plan = ready ? planResize(state.width, state.height, effective) : null;
  const imageWidth = plan?.width ?? state.width, imageHeight = plan?.height ?? state.height;
  const viewHeight = Math.min(VIEW_HEIGHT, imageHeight || VIEW_HEIGHT);
  const c = centre ?? { x: imageWidth / 2, y: imageHeight / 2 };
  const left = Math.round(Math.max(0, Math.min(imageWidth - viewWidth, c.x - viewWidth / 2)));
  const top = Math.round(Math.max(0, Math.min(imageHeight - viewHeight, c.y - viewHeight / 2)));
  const [split, setSplit] = useState(50);

  // The original's region, painted as it arrived beside the encode (raw pixels: no re-encode of the original).
  const originalRef = useRef<HTMLCanvasElement>(null);
  const crop = state.crop;
  useLayoutEffect(() => {
    const canvas = originalRef.current;
    if (!canvas || !crop) return;
    canvas.width = crop.region.width;
    canvas.height = crop.region.height;
    canvas.getContext("2d")?.putImageData(new ImageData(crop.original, crop.region.width, crop.region.height), 0, 0);
  }, [crop]);
  const region = { x: left, y: top, width: viewWidth + SLACK, height: viewHeight + SLACK };

  // A target's crop shows what the full-size search chose, once it is known for these settings.
  const chosen = state.full && settings.target
    ? { encoder: state.full.encoder, quality: state.full.chosenQuality }
    : undefined;
  const key = JSON.stringify(effective);
  useEffect(() => {
    if (ready && viewWidth > 0) engine.update(effective, region);
    // Settings changed (or the engine became ready): the crop first, then the full-size figures.
  }, [engine, ready, key, viewWidth > 0]);
  const regionKey = `${region.x},${region.y},${region.width},${region.height},${chosen?.encoder},${chosen?.quality}`;
  const firstPan = useRef(true);
  useEffect(() => {
    if (!ready || viewWidth === 0) return;
    if (firstPan.current) {
      firstPan.current = false;
      return;
    }
    engine.pan(effective, region, chosen);
  }, [regionKey]);

  const drag = useRef<{ x: number; y: number; centre: { x: number; y: number } } | null>(null);
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

  const recompressJob = useRecompressJob();
  const recompressBatch = useRecompressBatch();
  const summary = previewSummary(effective);
  const has = (setting: FormatSetting) => appliesTo(settings.format, setting);
  const full = state.full;
  const shown = full ? shownScore(full.report.score) : null;
  // The size arrives before its score: show the newest.
  const size = state.size && (!full || state.size.gen > full.gen) ? state.size.size : full?.size;

  return (
    <section
      aria-labelledby={`${ids}-title`}
      className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3"
      data-testid="live-preview"
      data-status={state.status}
      data-crop-gen={state.crop?.gen}
      data-crop-ms={state.crop ? Math.round(state.crop.ms) : undefined}
      data-full-gen={full?.gen}
      data-full-ms={full ? Math.round(full.roundTripMs) : undefined}
      data-full-pending={state.fullPending || undefined}
      data-size-gen={state.size?.gen}
      data-size-ms={state.size ? Math.round(state.size.roundTripMs) : undefined}
      data-encode-ms={full ? Math.round(full.encodeMs) : undefined}
      data-measure-ms={full ? Math.round(full.measureMs) : undefined}
    >
      <div className="flex items-baseline justify-between gap-2">
        <h2 id={`${ids}-title`} className="text-base font-semibold">Live preview</h2>
        {onClose && <Button size="sm" variant="ghost" onClick={onClose}>Close</Button>}
      </div>
      <p className="text-xs text-slate-500">
        The original on the left, these settings on the right of the divider, encoded in your browser at 1:1 of the
        {plan ? ` resized photo (${imageWidth}×${imageHeight})` : " photo"}; drag the photo to move. Nothing is sent to
        the server until you apply.
      </p>
      <div
        ref={viewRef}
        className="relative w-full cursor-grab touch-none overflow-hidden rounded-md bg-slate-200"
        style={{ height: viewHeight }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        data-testid="live-preview-view"
      >
        {crop && (
          <>
            <canvas
              ref={originalRef}
              role="img"
              aria-label={`${job.filename}, the original${plan ? " resized" : ""}, at 1:1`}
              className="absolute max-w-none select-none"
              style={{
                left: crop.region.x - left,
                top: crop.region.y - top,
                width: crop.region.width,
                height: crop.region.height,
              }}
              data-testid="live-preview-original"
            />
            <div className="absolute inset-0" style={{ clipPath: `inset(0 0 0 ${split}%)` }}>
              <img
                src={crop.url}
                alt={`${job.filename} with these settings, at 1:1`}
                draggable={false}
                className="absolute max-w-none select-none"
                style={{
                  left: crop.region.x - left,
                  top: crop.region.y - top,
                  width: crop.region.width,
                  height: crop.region.height,
                }}
                data-testid="live-preview-crop"
              />
            </div>
            <span className="pointer-events-none absolute left-2 top-2 rounded bg-slate-900/70 px-1.5 py-0.5 text-xs text-white">
              Original
            </span>
            <span className="pointer-events-none absolute right-2 top-2 rounded bg-slate-900/70 px-1.5 py-0.5 text-xs text-white">
              {FORMATS[settings.format].label}
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

      <dl className="grid grid-cols-2 gap-2 text-sm" aria-busy={state.fullPending}>
        <div>
          <dt className="text-xs text-slate-500">Predicted size</dt>
          <dd className="font-medium tabular-nums" data-testid="predicted-size" data-bytes={size}>
            {size !== undefined
              ? `${formatBytes(size)} · ${
                size >= job.originalSize ? "the original is kept" : `${sizeReduction(job.originalSize, size)}% smaller`
              }`
              : "…"}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Predicted score</dt>
          <dd
            className={cn("font-medium tabular-nums", shown && TONE_TEXT[shown.tone])}
            data-testid="predicted-score"
            data-score={full?.report.ssimulacra2}
          >
            {shown ? `${shown.value} · ${shown.word}` : "…"}
          </dd>
        </div>
        {state.fullPending && <p className="col-span-2 text-xs text-slate-500">Updating…</p>}
      </dl>

      <div className="space-y-3">
        <div className="space-y-1">
          <div className="flex items-baseline justify-between">
            <label htmlFor={`${ids}-quality`} className="text-sm font-medium text-slate-700">Quality</label>
            {/* The number alone: the setting's spec words ("60 · Fair") beside the predicted score's word read as one scale. */}
            <span className="text-sm tabular-nums">{settings.quality}</span>
          </div>
          <input
            id={`${ids}-quality`}
            type="range"
            min={QUALITY_RANGE.min}
            max={QUALITY_RANGE.max}
            step={1}
            value={settings.quality}
            disabled={effective.target !== null}
            onChange={(e) => update({ quality: Number(e.target.value) })}
            className="w-full accent-brand-600"
          />
        </div>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Labelled id={`${ids}-format`} label="Format">
            <select
              id={`${ids}-format`}
              className={SELECT}
              value={settings.format}
              onChange={(e) => update({ format: e.target.value as OutputFormat })}
            >
              {OUTPUT_FORMATS.map((f) => <option key={f} value={f}>{FORMATS[f].label}</option>)}
            </select>
          </Labelled>
          <Labelled id={`${ids}-encoder`} label="Encoder">
            <select
              id={`${ids}-encoder`}
              className={SELECT}
              value={effective.encoder}
              disabled={!has("encoder")}
              onChange={(e) => update({ encoder: e.target.value as Encoder })}
            >
              {ENCODERS.map((e) => <option key={e} value={e}>{codecLabel(e)}</option>)}
            </select>
          </Labelled>
          <Labelled id={`${ids}-chroma`} label="Chroma">
            <select
              id={`${ids}-chroma`}
              className={SELECT}
              value={settings.chromaSubsampling}
              disabled={!has("chromaSubsampling")}
              onChange={(e) => update({ chromaSubsampling: e.target.value as CompressSettings["chromaSubsampling"] })}
            >
              {CHROMA_SUBSAMPLINGS.map((c) => <option key={c} value={c}>{CHROMA_LABELS[c]}</option>)}
            </select>
          </Labelled>
          <div className="flex items-end gap-2 pb-2">
            <input
              id={`${ids}-progressive`}
              type="checkbox"
              className="h-4 w-4 accent-brand-600"
              checked={settings.progressive}
              disabled={!has("progressive")}
              onChange={(e) => update({ progressive: e.target.checked })}
            />
            <label htmlFor={`${ids}-progressive`} className="text-sm font-medium text-slate-700">Progressive</label>
          </div>
        </div>
        <ResizeFields value={settings} onChange={update} compact />
        <TargetChoice
          name={`${ids}-target`}
          target={effective.target}
          premium={premium}
          onChange={(target) => update({ target })}
        />
      </div>

      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          disabled={recompressJob.isPending}
          title={`Re-compress ${job.filename} with ${summary}`}
          onClick={() => recompressJob.mutate({ job, settings: effective, summary })}
        >
          Apply to this photo
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={recompressBatch.isPending}
          title={`Re-compress every image of this batch with ${summary}`}
          onClick={() =>
            recompressBatch.mutate({ batch: { id: job.batchId, name: "this batch" }, settings: effective, summary })}
        >
          Apply to the batch
        </Button>
      </div>
    </section>
  );
}

function Labelled({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">{label}</label>
      {children}
    </div>
  );
}

type TargetKind = "none" | Target["kind"];
const TARGET_CHOICES = [["none", "Quality setting"], ["size", "Size"], ["quality", "Score"], ["auto", "Auto"]] as const;

/** The Premium targets, compactly: the same four choices as the settings panel. */
function TargetChoice(
  { name, target, premium, onChange }: {
    name: string;
    target: Target | null;
    premium: boolean;
    onChange: (t: Target | null) => void;
  },
) {
  const kind: TargetKind = target?.kind ?? "none";
  const choose = (k: TargetKind) =>
    onChange(
      k === "none"
        ? null
        : k === "size"
        ? { kind: "size", kb: 200 }
        : k === "quality"
        ? { kind: "quality", score: 90 }
        : { kind: "auto" },
    );
  const clamp = (n: number, r: { min: number; max: number }) => Math.max(r.min, Math.min(r.max, n || r.min));
  return (
    <fieldset disabled={!premium} className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
      <legend className="mb-1 text-sm font-medium text-slate-700">
        Target {!premium && <span className="ml-1 rounded bg-amber-100 px-1.5 text-xs text-amber-800">Premium</span>}
      </legend>
      {TARGET_CHOICES.map(([k, label]) => (
        <label key={k} className="flex items-center gap-1.5">
          <input
            type="radio"
            name={name}
            checked={kind === k}
            onChange={() => choose(k)}
            className="accent-brand-600"
          />
          {label}
        </label>
      ))}
      {target?.kind === "size" && (
        <input
          type="number"
          aria-label="Target size (KB)"
          min={TARGET_KB_RANGE.min}
          max={TARGET_KB_RANGE.max}
          value={target.kb}
          onChange={(e) => onChange({ kind: "size", kb: clamp(Math.round(Number(e.target.value)), TARGET_KB_RANGE) })}
          className={cn(SELECT, "w-28")}
        />
      )}
      {target?.kind === "quality" && (
        <input
          type="number"
          aria-label="Target quality score"
          min={TARGET_SCORE_RANGE.min}
          max={TARGET_SCORE_RANGE.max}
          value={target.score}
          onChange={(e) => onChange({ kind: "quality", score: clamp(Number(e.target.value), TARGET_SCORE_RANGE) })}
          className={cn(SELECT, "w-24")}
        />
      )}
    </fieldset>
  );
}
