import { Redirect, Route, Switch, useLocation } from "wouter";
import { paths } from "../../../contract/routes.ts";
import { useUser } from "../features/auth/index.ts";
import { NotFoundPage } from "../features/misc/index.ts";
import { AboutPage, ContactPage, LandingPage, PrivacyPage } from "../features/public/index.ts";
import { ArticlePage, ArticlesPage } from "../features/articles/index.ts";
import { DevelopersPage } from "../features/developers/index.ts";
import { QueryError } from "../components/ui/query-state.tsx";
import { toast } from "../components/ui/use-toast.ts";
import { SignedInLayout } from "./signed-in-layout.tsx";
import { type ComponentType, lazy, Suspense, useEffect } from "react";

/** A page loaded on demand, with the spinner while its chunk loads. */
function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Page = lazy(async () => ({ default: await load() }));
  return (props: P) => (
    <Suspense fallback={<Loading />}>
      <Page {...props} />
    </Suspense>
  );
}

// Auth and signed-in screens load on demand: the prerendered public pages stay light. The auth and
// billing pages are not in their features' index.ts, which the first bundle imports.
const AuthPage = lazyPage(() => import("../features/auth/components/auth-page.tsx").then((m) => m.AuthPage));
const CompressorPage = lazyPage(() => import("./compressor-page.tsx").then((m) => m.CompressorPage));
const SubscribePage = lazyPage(() =>
  import("../features/billing/components/subscribe-page.tsx").then((m) => m.SubscribePage)
);
const TestCheckoutPage = lazyPage(() =>
  import("../features/billing/components/test-checkout-page.tsx").then((m) => m.TestCheckoutPage)
);

function Loading() {
  return (
    <div role="status" aria-live="polite" className="flex min-h-screen items-center justify-center">
      <span className="h-8 w-8 animate-spin rounded-full border-4 border-brand-600 border-t-transparent" />
      <span className="sr-only">Loading</span>
    </div>
  );
}

function RequireSignIn({ children }: { children: React.ReactNode }) {
  const { isAuthenticated } = useUser();
  const [location, navigate] = useLocation();
  useEffect(() => {
    if (!isAuthenticated) {
      toast({
        title: "Authentication Required",
        description: "Please log in to subscribe to premium features.",
        variant: "destructive",
      });
      navigate(`${paths.auth}?returnUrl=${encodeURIComponent(location)}`, { replace: true });
    }
  }, [isAuthenticated, location, navigate]);
  return isAuthenticated ? <SignedInLayout>{children}</SignedInLayout> : null;
}

/**
 * Spec §2's route table, driven by auth state. Only auth-dependent routes wait while the user
 * loads; public pages render at once (they are prerendered: a spinner would flash and shift).
 */
export function AppRouter() {
  const { isLoading, isAuthenticated, query } = useUser();
  // Not knowing who this is (the read failed) is not the same as signed out: say so, with Retry.
  const waitForUser = (page: React.ReactNode) =>
    isLoading
      ? <Loading />
      : query.isError && query.data === undefined
      ? (
        <main className="mx-auto flex min-h-[60vh] max-w-xl flex-col justify-center px-4">
          <QueryError what="your account" query={query} />
        </main>
      )
      : page;
  return (
    <Switch>
      <Route path={paths.home}>
        {isAuthenticated
          ? (
            <SignedInLayout>
              <CompressorPage />
            </SignedInLayout>
          )
          : waitForUser(<LandingPage />)}
      </Route>
      <Route path={paths.auth}>
        {waitForUser(isAuthenticated ? <Redirect to={paths.home} replace /> : <AuthPage />)}
      </Route>
      <Route path={paths.subscribe}>
        {waitForUser(
          <RequireSignIn>
            <SubscribePage />
          </RequireSignIn>,
        )}
      </Route>
      <Route path="/billing/test-checkout/:sessionId">
        {(params: { sessionId?: string }) =>
          waitForUser(
            <RequireSignIn>
              <TestCheckoutPage sessionId={params.sessionId ?? ""} />
            </RequireSignIn>,
          )}
      </Route>
      <Route path={paths.about}>
        <AboutPage />
      </Route>
      <Route path={paths.privacy}>
        <PrivacyPage />
      </Route>
      <Route path={paths.contact}>
        <ContactPage />
      </Route>
      <Route path={paths.articles}>
        <ArticlesPage />
      </Route>
      <Route path={paths.developers}>
        <DevelopersPage />
      </Route>
      <Route path={/^\/article(?<id>[1-9]|1[0-9]|20)$/}>
        {(params: { id?: string }) => <ArticlePage id={Number(params.id)} />}
      </Route>
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}
