import { QueryClientProvider } from "@tanstack/react-query";
import type { QueryClient } from "@tanstack/react-query";
import { Router } from "wouter";
import { Toaster } from "../components/ui/toaster.tsx";
import { ErrorBoundary } from "./error-boundary.tsx";
import { AppRouter } from "./router.tsx";
import { AdBlockerNotice } from "../features/ads/components/ad-blocker-notice.tsx";
import { CookieBanner } from "../features/ads/components/cookie-banner.tsx";
import { PlanExpiryWatcher } from "../features/billing/components/plan-expiry-watcher.tsx";
import { StoreKindContext } from "../lib/store-kind.ts";
import { DEFAULT_STORE_KIND, type StoreKind } from "../../../contract/storage.ts";

export interface AppProps {
  queryClient: QueryClient;
  /** The path being prerendered at build time (react-dom/server); absent in the browser. */
  ssrPath?: string;
  /** The byte store the page describes: the variant being prerendered, or the served page's meta tag. */
  storeKind?: StoreKind;
}

export function App({ queryClient, ssrPath, storeKind = DEFAULT_STORE_KIND }: AppProps) {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <StoreKindContext.Provider value={storeKind}>
          <Router ssrPath={ssrPath}>
            <AdBlockerNotice />
            <AppRouter />
            <CookieBanner />
            <PlanExpiryWatcher />
          </Router>
          <Toaster />
        </StoreKindContext.Provider>
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
