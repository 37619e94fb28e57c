import { Component, type ReactNode } from "react";
import { paths } from "../../../contract/routes.ts";
import { Button } from "../components/ui/button.tsx";

/**
 * The last resort for an error while rendering (a response of an unexpected shape, a chunk that
 * failed to load): a readable page with a way back instead of a blank one. React logs the error.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <ErrorPage /> : this.props.children;
  }
}

function ErrorPage() {
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-3xl font-bold">Something went wrong</h1>
      <p className="text-slate-600">
        This page ran into an error and stopped. Reloading usually fixes it; images you uploaded are not affected.
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button onClick={() => globalThis.location.reload()}>Reload</Button>
        {/* A full page load, so the app starts afresh. */}
        <Button asChild variant="secondary">
          <a href={paths.home}>Go to the home page</a>
        </Button>
      </div>
    </main>
  );
}
