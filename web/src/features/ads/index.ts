// What other features use of ads; the app shell mounts the banner and the notice itself.
export { AdSlot } from "./components/ad-slot.tsx";
export { useSiteConfig } from "./data/get-site-config.ts";
