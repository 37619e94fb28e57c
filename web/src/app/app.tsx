import { QueryClientProvider } from "@tanstack/react-query";
import type { QueryClient } from "@tanstack/react-query";
import { Router } from "wouter";
import { Toaster } from "../components/ui/toaster.tsx";
import { AppRouter } from "./router.tsx";
import { AdBlockerNotice } from "../features/ads/components/ad-blocker-notice.tsx";
import { CookieBanner } from "../features/ads/components/cookie-banner.tsx";
import { PlanExpiryWatcher } from "../features/billing/components/plan-expiry-watcher.tsx";

export interface AppProps {
  queryClient: QueryClient;
  /** The path being prerendered at build time (react-dom/server); absent in the browser. */
  ssrPath?: string;
}

export function App({ queryClient, ssrPath }: AppProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <Router ssrPath={ssrPath}>
        <AdBlockerNotice />
        <AppRouter />
        <CookieBanner />
        <PlanExpiryWatcher />
      </Router>
      <Toaster />
    </QueryClientProvider>
  );
}
