import type { Job } from "../../../../../contract/jobs.ts";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { formatBytes } from "../../../lib/format-bytes.ts";
import { sessionStats } from "../lib/session-stats.ts";
import { StatGrid, type StatRow } from "./stat-grid.tsx";

/** Spec §3's session stats, derived from the jobs on the page. */
export function SessionStatsCard({ jobs }: { jobs: Job[] }) {
  const s = sessionStats(jobs);
  const rows: StatRow[] = [
    ["Total files", String(s.totalFiles), "stat-total"],
    ["Completed", String(s.completed), "stat-completed"],
    ["Original size", formatBytes(s.originalSize), "stat-original"],
    ["Average savings", `${s.totalSavings}%`, "stat-savings"],
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
