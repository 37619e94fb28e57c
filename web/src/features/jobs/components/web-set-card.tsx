import { useId, useState } from "react";
import { formatBytes } from "../../../../../contract/format-bytes.ts";
import { FORMATS } from "../../../../../contract/formats.ts";
import type { Job } from "../../../../../contract/jobs.ts";
import { shownScore } from "../../../../../contract/score-words.ts";
import {
  DEFAULT_SIZES,
  PICTURE_ORDER,
  pictureHtml,
  type SetFile,
  type WebSet,
} from "../../../../../contract/web-sets.ts";
import { ScoreWordLink, TONE_TEXT } from "../../../components/score-word.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { cn } from "../../../lib/cn.ts";
import { pageWeight } from "../../../lib/page-weight.ts";

type SetJob = Pick<Job, "filename" | "originalSize" | "compressedSize"> & { webSet: WebSet };

/** "Phone (640 px, AVIF): 41 KB" */
const loaded = (device: string, f: SetFile) =>
  `${device} (${f.width} px, ${FORMATS[f.format].label}): ${formatBytes(f.bytes)}`;

/** A score as every card shows it: the whole number, its colour and its word. */
function Score({ score, testId }: { score: number; testId: string }) {
  const shown = shownScore(score);
  return (
    <span className={cn("font-medium", TONE_TEXT[shown.tone])} data-testid={testId}>
      {shown.value} · <ScoreWordLink score={shown} />
    </span>
  );
}

/** A completed web set's status (issue 30, item 5): its files and ZIP, and its weakest score. */
export function WebSetSummary({ job }: { job: SetJob }) {
  const weakest = Math.min(...job.webSet.files.map((f) => f.score));
  return (
    <div className="text-sm">
      <p>
        Web set · <span data-testid="set-file-count">{job.webSet.files.length} files</span>
        {job.compressedSize !== null && (
          <span className="text-slate-500" data-testid="job-compressed-size">
            {` · ZIP ${formatBytes(job.compressedSize)}`}
          </span>
        )}
      </p>
      <p className="text-xs text-slate-500">
        Lowest score <Score score={weakest} testId="job-score" />
      </p>
    </div>
  );
}

/**
 * What a phone and a desktop load of the set (issue 30, item 6), against the original: "Phone (640 px,
 * AVIF): 41 KB instead of 4.2 MB · Desktop (1920 px, AVIF): 160 KB"; on phones, one line each.
 */
function PageWeightLine({ job }: { job: SetJob }) {
  const { phone, desktop } = pageWeight(job.webSet);
  return (
    <p className="text-xs text-green-800 sm:font-medium" data-testid="set-page-weight">
      <span className="block sm:inline">
        {loaded("Phone", phone)} <span className="whitespace-nowrap">instead of {formatBytes(job.originalSize)}</span>
      </span>{" "}
      <span className="max-sm:hidden">·</span> <span className="block sm:inline">{loaded("Desktop", desktop)}</span>
    </p>
  );
}

const order = (f: SetFile) => {
  const i = PICTURE_ORDER.indexOf(f.format);
  return i === -1 ? PICTURE_ORDER.length : i;
};

/**
 * A web set's page weight, its files (by format in `<picture>` order, then width) and its markup, with
 * `sizes` to edit.
 */
export function WebSetFiles({ job }: { job: SetJob }) {
  const id = useId();
  const [sizes, setSizes] = useState<string>(DEFAULT_SIZES);
  const files = [...job.webSet.files].sort((a, b) => order(a) - order(b) || a.width - b.width);
  const copy = async () => {
    const used = sizes.trim() || DEFAULT_SIZES;
    try {
      await navigator.clipboard.writeText(pictureHtml(job.webSet, used));
      toast({ title: "HTML copied", description: `The <picture> element of ${job.webSet.name}, sizes="${used}".` });
    } catch {
      toast({
        title: "Could not copy",
        description: "The browser refused the clipboard: picture.html in the download holds the same markup.",
        variant: "destructive",
      });
    }
  };
  return (
    <div className="mt-3 space-y-3 border-t border-slate-100 pt-3" data-testid="web-set">
      <PageWeightLine job={job} />
      <div className="overflow-x-auto">
        <table className="w-full text-left text-xs tabular-nums sm:w-auto">
          <caption className="sr-only">The files of the web set of {job.filename}</caption>
          <thead className="text-slate-500">
            <tr>
              <th scope="col" className="py-1 pr-2 font-medium sm:pr-6">File</th>
              <th scope="col" className="hidden py-1 pr-6 font-medium sm:table-cell">Format</th>
              <th scope="col" className="hidden py-1 pr-6 font-medium sm:table-cell">Pixels</th>
              <th scope="col" className="py-1 pr-2 text-right font-medium sm:pr-6">Size</th>
              <th scope="col" className="py-1 font-medium">Score</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {files.map((f) => (
              <tr key={f.file} data-testid="set-file" data-format={f.format}>
                <td className="max-w-40 py-1 pr-2 sm:pr-6">
                  <span className="block truncate font-mono" title={f.file} data-testid="set-file-name">{f.file}</span>
                  {/* Phones: the format and pixels under the name, for room. */}
                  <span className="block text-slate-500 sm:hidden">
                    {FORMATS[f.format].label} · {f.width}×{f.height}
                  </span>
                </td>
                <td className="hidden py-1 pr-6 sm:table-cell" data-testid="set-file-format">
                  {FORMATS[f.format].label}
                </td>
                <td className="hidden whitespace-nowrap py-1 pr-6 sm:table-cell" data-testid="set-file-pixels">
                  {f.width}×{f.height}
                </td>
                <td className="whitespace-nowrap py-1 pr-2 text-right sm:pr-6" data-testid="set-file-size">
                  {formatBytes(f.bytes)}
                </td>
                <td className="py-1 sm:whitespace-nowrap">
                  <Score score={f.score} testId="set-file-score" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1 space-y-1 sm:max-w-xs sm:flex-none sm:basis-64">
          <label htmlFor={`${id}-sizes`} className="block text-xs text-slate-600">
            <code>sizes</code> (display width)
          </label>
          <input
            id={`${id}-sizes`}
            value={sizes}
            onChange={(e) => setSizes(e.target.value)}
            spellCheck={false}
            className="h-8 w-full rounded-md border border-slate-300 bg-white px-2 font-mono text-xs focus-visible:outline-2 focus-visible:outline-brand-600"
          />
        </div>
        <Button size="sm" variant="secondary" onClick={() => void copy()} aria-label={`Copy HTML of ${job.filename}`}>
          Copy HTML
        </Button>
      </div>
    </div>
  );
}
