/** Plans and limits (DESIGN §3): enforced by the server, mirrored by the UI. */
import type { SubscriptionStatus } from "./accounts.ts";
import { isPremium } from "./accounts.ts";

export type PlanName = "free" | "premium";

export interface PlanLimits {
  name: PlanName;
  /** Compressions per UTC day; null = unlimited. */
  dailyCompressions: number | null;
  maxFileBytes: number;
  maxFilesPerUpload: number;
  maxPixels: number;
  /** Premium work is always scheduled before free work. */
  priority: number;
  /** Free users get a fixed 2; premium users choose 1-10 (default 3). */
  fixedConcurrency: number | null;
  targets: boolean;
  /** Responsive web sets (widths × formats from one photo). */
  webSets: boolean;
  ads: boolean;
}

export const MB = 1024 * 1024;

export const PLANS: Record<PlanName, PlanLimits> = {
  free: {
    name: "free",
    dailyCompressions: 10,
    maxFileBytes: 10 * MB,
    maxFilesPerUpload: 20,
    maxPixels: 50_000_000,
    priority: 0,
    fixedConcurrency: 2,
    targets: false,
    webSets: false,
    ads: true,
  },
  premium: {
    name: "premium",
    dailyCompressions: null,
    maxFileBytes: 25 * MB,
    maxFilesPerUpload: 100,
    maxPixels: 100_000_000,
    priority: 1,
    fixedConcurrency: null,
    targets: true,
    webSets: true,
    ads: false,
  },
};

export const planFor = (status: SubscriptionStatus): PlanLimits => PLANS[isPremium(status) ? "premium" : "free"];

/**
 * Jobs that end without a smaller result (failed, cancelled, deleted unfinished,
 * already optimised) give their quota unit back, up to this many a UTC day per
 * account; later ones keep it. So a free account causes at most
 * dailyCompressions + this many jobs of work a day, whatever fails (DESIGN §3).
 */
export const QUOTA_REFUNDS_PER_DAY = 10;

export const PREMIUM_PRICE_LABEL = "$9.99/month";
export const CONCURRENCY_CHOICES = [1, 2, 3, 4, 5, 6, 8, 10] as const;
export const DEFAULT_MAX_CONCURRENT = 3;
