import { Redirect, Route, Switch, useLocation } from "wouter";
import { paths } from "../../../contract/routes.ts";
import { AppHeader } from "../components/layout/app-header.tsx";
import { AuthPage } from "../features/auth/components/auth-page.tsx";
import { useUser } from "../features/auth/api/get-user.ts";
import { NotFoundPage } from "../features/misc/not-found-page.tsx";
import { PlaceholderPage } from "../features/misc/placeholder-page.tsx";
import { toast } from "../components/ui/use-toast.ts";
import { useEffect } from "react";

function Loading() {
  return (
    <div role="status" aria-live="polite" className="flex min-h-screen items-center justify-center">
      <span className="h-8 w-8 animate-spin rounded-full border-4 border-brand-600 border-t-transparent" />
      <span className="sr-only">Loading</span>
    </div>
  );
}

function SignedInLayout({ children }: { children: React.ReactNode }) {
  return (
    <>
      <AppHeader />
      {children}
    </>
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

/** Spec §2's route table, driven by auth state; waits while the user loads. */
export function AppRouter() {
  const { isLoading, isAuthenticated } = useUser();
  if (isLoading) return <Loading />;
  return (
    <Switch>
      <Route path={paths.home}>
        {isAuthenticated
          ? (
            <SignedInLayout>
              <PlaceholderPage title="Processing Queue" />
            </SignedInLayout>
          )
          : <PlaceholderPage title="Compress JPEG images without losing quality" />}
      </Route>
      <Route path={paths.auth}>{isAuthenticated ? <Redirect to={paths.home} replace /> : <AuthPage />}</Route>
      <Route path={paths.subscribe}>
        <RequireSignIn>
          <PlaceholderPage title="Premium Plan" />
        </RequireSignIn>
      </Route>
      <Route path={paths.about}>
        <PlaceholderPage title="About" />
      </Route>
      <Route path={paths.privacy}>
        <PlaceholderPage title="Privacy Policy" />
      </Route>
      <Route path={paths.contact}>
        <PlaceholderPage title="Contact" />
      </Route>
      <Route path={paths.articles}>
        <PlaceholderPage title="Image Compression Articles" />
      </Route>
      <Route path={/^\/article(?<id>[1-9]|1[0-9]|20)$/}>{() => <PlaceholderPage title="Article" />}</Route>
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}
