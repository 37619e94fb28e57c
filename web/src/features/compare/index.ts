export { ComparePanel } from "./components/compare-panel.tsx";
