import type { QueueStatus } from "../../../../../contract/jobs.ts";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { queueEfficiency } from "../lib/session-stats.ts";

/** Your share of the queue: slots in use and queue efficiency (spec §9). */
export function QueueStatusCard({ status }: { status: QueueStatus | undefined }) {
  const rows: [string, string, string][] = status
    ? [
      ["Concurrent limit", String(status.maxConcurrentJobs), "queue-max"],
      ["Processing now", String(status.currentlyProcessing), "queue-processing"],
      ["Available slots", String(status.availableSlots), "queue-available"],
      [
        "Queue efficiency",
        `${queueEfficiency(status.currentlyProcessing, status.maxConcurrentJobs)}%`,
        "queue-efficiency",
      ],
    ]
    : [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Queue Status</CardTitle>
      </CardHeader>
      <CardContent className="min-h-20">
        {status
          ? (
            <dl className="grid grid-cols-2 gap-3 text-sm">
              {rows.map(([label, value, id]) => (
                <div key={id}>
                  <dt className="text-xs text-slate-500">{label}</dt>
                  <dd className="font-semibold tabular-nums" data-testid={id}>{value}</dd>
                </div>
              ))}
            </dl>
          )
          : <p className="text-sm text-slate-500">Loading…</p>}
      </CardContent>
    </Card>
  );
}
