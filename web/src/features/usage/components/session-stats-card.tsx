import type { Job } from "../../../../../contract/jobs.ts";
import { shownScore } from "../../../../../contract/score-words.ts";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { type QueryLike, QueryLoading } from "../../../components/ui/query-state.tsx";
import { formatBytes } from "../../../../../contract/format-bytes.ts";
import { savings } from "../../../lib/review.ts";
import { countedVersions } from "../../../lib/versions.ts";
import { sessionStats } from "../lib/session-stats.ts";
import { StatGrid, type StatRow } from "./stat-grid.tsx";

/**
 * Spec §3's session stats, derived from the jobs on the page. Savings are byte-weighted (saved
 * bytes over original bytes of the completed images), as in the job list's summary. Until the jobs
 * are read there are no figures (not zeros); a failed read is reported, with Retry, by the job list.
 */
export function SessionStatsCard({ jobs: all, query }: { jobs: Job[]; query: QueryLike }) {
  // Each photo once, at the version "Download all" holds (issue 24, item 4).
  const jobs = countedVersions(all);
  const s = sessionStats(jobs);
  const saved = savings(jobs);
  const lowest = saved.lowestScore === null ? null : shownScore(saved.lowestScore);
  const rows: StatRow[] = [
    ["Total files", String(s.totalFiles), "stat-total"],
    ["Completed", String(s.completed), "stat-completed"],
    ["Original size", formatBytes(s.originalSize), "stat-original"],
    ["Saved", `${formatBytes(saved.savedBytes)} (${saved.percent}%)`, "stat-savings"],
    ["Lowest score", lowest === null ? "–" : `${lowest.value} (${lowest.word})`, "stat-lowest-score"],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Session Stats</CardTitle>
      </CardHeader>
      <CardContent>
        {query.data !== undefined
          ? <StatGrid rows={rows} />
          : query.isPending
          ? <QueryLoading what="your stats" />
          : <p className="text-sm text-slate-500">The figures show once your jobs are loaded.</p>}
      </CardContent>
    </Card>
  );
}
