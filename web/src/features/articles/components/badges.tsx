import type { Difficulty } from "../lib/article-meta.ts";
import { cn } from "../../../lib/cn.ts";

const LEVEL_STYLES: Record<Difficulty, string> = {
  Beginner: "bg-green-100 text-green-800",
  Intermediate: "bg-amber-100 text-amber-900",
  Advanced: "bg-rose-100 text-rose-800",
};

export function DifficultyBadge({ level, className }: { level: Difficulty; className?: string }) {
  return (
    <span className={cn("rounded-full px-2.5 py-0.5 text-xs font-semibold", LEVEL_STYLES[level], className)}>
      {level}
    </span>
  );
}

export function CategoryBadge({ category }: { category: string }) {
  return <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-700">{category}
  </span>;
}
