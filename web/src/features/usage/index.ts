export { QueueStatusCard } from "./components/queue-status-card.tsx";
export { SessionStatsCard } from "./components/session-stats-card.tsx";
export { UsageCard } from "./components/usage-card.tsx";
export { useUsage } from "./data/get-usage.ts";
