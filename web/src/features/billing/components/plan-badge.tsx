import { cn } from "../../../lib/cn.ts";

export function PlanBadge({ premium }: { premium: boolean }) {
  return (
    <span
      data-testid="plan-badge"
      className={cn(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold",
        premium ? "bg-amber-100 text-amber-900 ring-1 ring-amber-300" : "bg-slate-100 text-slate-700",
      )}
    >
      {premium ? "Premium" : "Free"}
    </span>
  );
}
