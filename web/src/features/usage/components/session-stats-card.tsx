import type { Job } from "../../../../../contract/jobs.ts";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { formatBytes } from "../../../lib/format-bytes.ts";
import { savings } from "../../../lib/review.ts";
import { sessionStats } from "../lib/session-stats.ts";
import { StatGrid, type StatRow } from "./stat-grid.tsx";

/**
 * Spec §3's session stats, derived from the jobs on the page. Savings are byte-weighted (saved
 * bytes over original bytes of the completed images), as in the job list's summary.
 */
export function SessionStatsCard({ jobs }: { jobs: Job[] }) {
  const s = sessionStats(jobs);
  const saved = savings(jobs);
  const rows: StatRow[] = [
    ["Total files", String(s.totalFiles), "stat-total"],
    ["Completed", String(s.completed), "stat-completed"],
    ["Original size", formatBytes(s.originalSize), "stat-original"],
    ["Saved", `${formatBytes(saved.savedBytes)} (${saved.percent}%)`, "stat-savings"],
    ["Lowest score", saved.lowestScore === null ? "–" : String(Math.round(saved.lowestScore)), "stat-lowest-score"],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Session Stats</CardTitle>
      </CardHeader>
      <CardContent>
        <StatGrid rows={rows} />
      </CardContent>
    </Card>
  );
}
