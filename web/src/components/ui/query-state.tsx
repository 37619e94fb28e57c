import type { ReactNode } from "react";
import { messageOf } from "@web-api/client.ts";
import { cn } from "../../lib/cn.ts";
import { Button } from "./button.tsx";

/** What the states need of a TanStack Query result. */
export interface QueryLike {
  /** Nothing has arrived yet (TanStack's `isPending`); false once it failed. */
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  data: unknown;
  refetch: () => unknown;
}

const GENERIC_FAILURE = "The server did not answer as expected. Check your connection, then try again.";

/** "Loading your jobs…", announced politely. */
export function QueryLoading({ what, className }: { what: string; className?: string }) {
  return (
    <p role="status" className={cn("flex items-center gap-2 text-sm text-slate-500", className)}>
      <span
        aria-hidden="true"
        className="inline-block h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent"
      />
      Loading {what}…
    </p>
  );
}

/** A failed read: what failed, the server's own `{ error }` text when it sent one, and Retry. */
export function QueryError(
  { what, query, children, className }: { what: string; query: QueryLike; children?: ReactNode; className?: string },
) {
  return (
    <div
      role="alert"
      data-testid="query-error"
      className={cn(
        "flex flex-wrap items-center justify-between gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm",
        className,
      )}
    >
      <div className="min-w-0 flex-1 basis-48 text-red-800">
        <p className="font-semibold">Could not load {what}</p>
        <p data-testid="query-error-message">{messageOf(query.error, GENERIC_FAILURE)}</p>
        {children}
      </div>
      <Button size="sm" variant="secondary" disabled={query.isFetching} onClick={() => void query.refetch()}>
        {query.isFetching ? "Retrying…" : "Retry"}
      </Button>
    </div>
  );
}

/**
 * One query's states, each distinct: loading, failed (with Retry), empty, or its data. A poll that
 * fails after data arrived keeps the last data in view, under the notice.
 */
export function QueryState(
  { query, what, isEmpty = false, empty, children }: {
    query: QueryLike;
    /** What is read, in words that follow "Loading" and "Could not load": "your jobs". */
    what: string;
    isEmpty?: boolean;
    /** Shown when the read succeeded with nothing in it. */
    empty?: ReactNode;
    children: ReactNode;
  },
) {
  if (query.isPending) return <QueryLoading what={what} />;
  const content = isEmpty ? empty : children;
  if (!query.isError) return content;
  return (
    <div className="space-y-3">
      <QueryError what={what} query={query} />
      {query.data !== undefined && content}
    </div>
  );
}
