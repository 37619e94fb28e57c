import { Link } from "wouter";
import { paths } from "../../../../../contract/routes.ts";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { cn } from "../../../lib/cn.ts";
import { useUsage } from "../data/get-usage.ts";
import { usageLevel } from "../lib/session-stats.ts";

const resetTime = (iso: string) =>
  new Date(iso).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", timeZoneName: "short" });

/** Today's compressions against the plan's daily limit (server-counted, UTC day). */
export function UsageCard({ active }: { active: boolean }) {
  const usage = useUsage(active);
  const data = usage.data;
  return (
    <Card data-testid="usage-card">
      <CardHeader>
        <CardTitle>Daily Usage</CardTitle>
      </CardHeader>
      <CardContent className="min-h-24 space-y-2 text-sm">
        <QueryState query={usage} what="today's usage">
          {data && <UsageBody used={data.used} limit={data.limit} resetsAt={data.resetsAt} />}
        </QueryState>
      </CardContent>
    </Card>
  );
}

function UsageBody({ used, limit, resetsAt }: { used: number; limit: number | null; resetsAt: string }) {
  const level = usageLevel(used, limit);
  if (limit === null) {
    return (
      <p>
        <span className="font-semibold" data-testid="usage-count">{used}</span> compressions today ·{" "}
        <span className="text-green-700">Unlimited with Premium</span>
      </p>
    );
  }
  const pct = Math.min(100, Math.round((used / limit) * 100));
  return (
    <div data-level={level} data-testid="usage-level" className="space-y-2">
      <p>
        <span className="font-semibold" data-testid="usage-count">{used} / {limit}</span> compressions today
      </p>
      <div
        role="progressbar"
        aria-label="Daily usage"
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={Math.min(used, limit)}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={cn(
            "h-full",
            level === "reached" ? "bg-red-600" : level === "warning" ? "bg-amber-500" : "bg-brand-600",
          )}
          style={{ width: `${pct}%` }}
        />
      </div>
      {level === "warning" && (
        <p role="status" className="font-medium text-amber-700">
          You have used {pct}% of today's free compressions
        </p>
      )}
      {level === "reached" && (
        <div role="alert" className="space-y-1">
          <p className="font-semibold text-red-700">Daily limit reached</p>
          <Link href={paths.subscribe} className="text-brand-700 underline">
            Upgrade to Premium for unlimited compression
          </Link>
        </div>
      )}
      <p className="text-xs text-slate-500">Resets at {resetTime(resetsAt)}</p>
    </div>
  );
}
