import type { Job } from "../../../../../contract/jobs.ts";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { formatBytes } from "../../../lib/format-bytes.ts";
import { sessionStats } from "../lib/session-stats.ts";

/** Spec §3's session stats, derived from the jobs on the page. */
export function SessionStatsCard({ jobs }: { jobs: Job[] }) {
  const s = sessionStats(jobs);
  const rows: [string, string, string][] = [
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
        <dl className="grid grid-cols-2 gap-3 text-sm">
          {rows.map(([label, value, id]) => (
            <div key={id}>
              <dt className="text-xs text-slate-500">{label}</dt>
              <dd className="font-semibold tabular-nums" data-testid={id}>{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
