import { codecLabel } from "../../../../../contract/codec-labels.ts";
import { searchesEncoders } from "../../../../../contract/settings.ts";
import { type Job, scoreBand, sizeReduction } from "../../../../../contract/jobs.ts";
import { cn } from "../../../lib/cn.ts";
import { formatBytes } from "../../../lib/format-bytes.ts";

const BAND_STYLES = {
  good: "bg-green-50 text-green-800 border-green-200",
  fair: "bg-yellow-50 text-yellow-800 border-yellow-200",
  poor: "bg-red-50 text-red-800 border-red-200",
} as const;

function Score({ label, value }: { label: string; value: number }) {
  const band = scoreBand(value);
  return (
    <div className={cn("rounded-lg border px-3 py-2", BAND_STYLES[band])} data-testid="score" data-band={band}>
      <dt className="text-xs">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums">
        {Math.round(value)} <span className="text-xs font-normal">{band}</span>
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

/** Scores measured by the server (decoded original vs decoded output), banded per spec §9. */
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
              {s.ssimulacra2.toFixed(1)}); 85 and above is good, 70 and above fair.
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
