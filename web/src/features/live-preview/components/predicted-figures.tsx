import { sizeReduction } from "../../../../../contract/jobs.ts";
import { shownScore } from "../../../../../contract/score-words.ts";
import { formatBytes } from "../../../../../contract/format-bytes.ts";
import { TONE_TEXT } from "../../../components/score-word.tsx";
import { cn } from "../../../lib/cn.ts";
import type { PreviewState } from "../lib/preview-engine.ts";

/** The whole image's predicted size (against the original's) and score, "…" until they come. */
export function PredictedFigures({ state, originalSize }: { state: PreviewState; originalSize: number }) {
  const full = state.full;
  const shown = full ? shownScore(full.report.score) : null;
  // The size arrives before its score: show the newest.
  const size = state.size && (!full || state.size.gen > full.gen) ? state.size.size : full?.size;
  return (
    <dl className="grid grid-cols-2 gap-2 text-sm" aria-busy={state.fullPending}>
      <div>
        <dt className="text-xs text-slate-500">Predicted size</dt>
        <dd className="font-medium tabular-nums" data-testid="predicted-size" data-bytes={size}>
          {size !== undefined
            ? `${formatBytes(size)} · ${
              size >= originalSize ? "the original is kept" : `${sizeReduction(originalSize, size)}% smaller`
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
  );
}
