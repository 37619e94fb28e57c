export { LivePreviewPanel } from "./components/live-preview-panel.tsx";
