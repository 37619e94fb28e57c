import { Link } from "wouter";
import { codecLabel } from "../../../../../contract/codec-labels.ts";
import { searchesEncoders } from "../../../../../contract/settings.ts";
import { type Job, sizeReduction } from "../../../../../contract/jobs.ts";
import { SCORE_NOTE_HREF, SCORE_SCALE_NOTE, shownScore } from "../../../../../contract/score-words.ts";
import { ScoreWordLink, TONE_TILE } from "../../../components/score-word.tsx";
import { cn } from "../../../lib/cn.ts";
import { formatBytes } from "../../../../../contract/format-bytes.ts";

function Score({ label, value }: { label: string; value: number }) {
  const shown = shownScore(value);
  return (
    <div
      className={cn("rounded-lg border px-3 py-2", TONE_TILE[shown.tone])}
      data-testid="score"
      data-tone={shown.tone}
      data-word={shown.word}
    >
      <dt className="text-xs">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums">
        {shown.value} <ScoreWordLink score={shown} className="text-xs font-normal" />
      </dd>
    </div>
  );
}

/** The codec that made the result's bytes; a score target's search chose it among the JPEG encoders. */
function EncoderLine({ job }: { job: Job }) {
  const searched = job.settings ? searchesEncoders(job.settings) : false;
  return (
    <p className="text-sm">
      <span className="font-medium">Encoder:</span> {job.encoder
        ? (
          <>
            <span data-testid="compare-encoder">{codecLabel(job.encoder)}</span>{" "}
            {searched && <span className="text-slate-500">· the target kept the smaller of both encoders' files</span>}
          </>
        )
        : <span data-testid="compare-encoder">none, the original was kept</span>}
    </p>
  );
}

/** Scores measured by the server (decoded original vs decoded output), worded on SSIMULACRA 2's scale (ADR 026). */
export function QualityScores({ job }: { job: Job }) {
  const compressed = job.compressedSize ?? job.originalSize;
  const s = job.scores;
  return (
    <div className="space-y-2">
      <p className="text-sm">
        <span className="font-medium">Size reduction:</span>{" "}
        <span data-testid="size-reduction">{sizeReduction(job.originalSize, compressed)}%</span>{" "}
        <span className="text-slate-500">({formatBytes(job.originalSize)} → {formatBytes(compressed)})</span>
      </p>
      <EncoderLine job={job} />
      {s
        ? (
          <>
            <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
              <Score label="Overall" value={s.overall} />
              <Score label="Sharpness" value={s.sharpness} />
              <Score label="Colour accuracy" value={s.colorAccuracy} />
              <Score label="Artifacts" value={s.artifacts} />
            </dl>
            <p className="text-xs text-slate-500">
              Measured on the server by comparing the decoded images (SSIMULACRA 2:{" "}
              {s.ssimulacra2.toFixed(1)}); 90 and above is visually lossless, 80 and above not noticeable side by side.
              {" "}
              <Link href={SCORE_NOTE_HREF} title={SCORE_SCALE_NOTE} className="underline underline-offset-2">
                What the scores mean
              </Link>
            </p>
          </>
        )
        : (
          <p className="text-xs text-slate-500" data-testid="scores-pending">
            {job.scorePending
              ? "Measuring the quality score… it appears here in a few seconds."
              : "No quality measurement for this image."}
          </p>
        )}
    </div>
  );
}
