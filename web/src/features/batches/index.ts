export { BatchActions } from "./components/batch-actions.tsx";
export { BatchPanel } from "./components/batch-panel.tsx";
export { useBatches } from "./data/get-batches.ts";
export { useRecompressBatch } from "./data/batch-actions.ts";
