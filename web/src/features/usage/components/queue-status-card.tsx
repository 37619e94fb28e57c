import type { UseQueryResult } from "@tanstack/react-query";
import type { QueueStatus } from "../../../../../contract/jobs.ts";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { queueEfficiency } from "../lib/session-stats.ts";
import { StatGrid, type StatRow } from "./stat-grid.tsx";

/** Your share of the queue: slots in use and queue efficiency (spec §9), explained in a sentence. */
export function QueueStatusCard({ query }: { query: UseQueryResult<QueueStatus> }) {
  const status = query.data;
  const rows: StatRow[] = status
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
        <QueryState query={query} what="the queue status">
          {status && (
            <>
              <StatGrid rows={rows} />
              <p className="mt-3 text-xs text-slate-500" data-testid="queue-efficiency-help">
                Queue efficiency is the share of your {status.maxConcurrentJobs}{" "}
                processing slots in use right now: 100% means your images are being compressed as fast as your plan
                allows.
              </p>
            </>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
