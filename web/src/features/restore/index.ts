export { RestoreCard } from "./components/restore-card.tsx";
