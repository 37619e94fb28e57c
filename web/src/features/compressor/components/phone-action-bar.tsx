import { useLayoutEffect, useRef } from "react";
import { Link } from "wouter";
import { paths } from "../../../../../contract/routes.ts";
import type { Job } from "../../../../../contract/jobs.ts";
import { Button } from "../../../components/ui/button.tsx";
import { countedVersions } from "../../../lib/versions.ts";

/**
 * Phones (issue 24, item 6): once results exist, "Download all" and, for a free user, "Upgrade" stay on
 * the first screen in a bar fixed to the bottom, above the cookie banner (which publishes its height).
 * The bar publishes its own height as --action-bar-height, so notices (toaster.tsx) sit above it; the
 * spacer it renders keeps the end of the page clear of it. Hidden from `sm` up, where the batch actions
 * and the subscription card are in view.
 */
export function PhoneActionBar(
  { jobs, premium, downloadAll, downloading }: {
    jobs: Job[];
    premium: boolean;
    downloadAll: () => void;
    downloading: boolean;
  },
) {
  const ref = useRef<HTMLDivElement>(null);
  const ready = countedVersions(jobs).filter((j) => j.status === "completed" && !j.expired).length;
  const visible = ready > 0;

  useLayoutEffect(() => {
    const bar = ref.current;
    if (!visible || !bar) return;
    const root = document.documentElement;
    // Hidden from `sm` up (display: none): its height is then 0.
    const publish = () => root.style.setProperty("--action-bar-height", `${bar.offsetHeight}px`);
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(bar);
    addEventListener("resize", publish);
    return () => {
      observer.disconnect();
      removeEventListener("resize", publish);
      root.style.removeProperty("--action-bar-height");
    };
  }, [visible]);

  if (!visible) return null;
  return (
    <>
      <div aria-hidden className="h-16 sm:hidden" />
      <div
        ref={ref}
        role="group"
        aria-label="Result actions"
        data-testid="phone-action-bar"
        className="fixed inset-x-0 bottom-[var(--cookie-banner-height,0px)] z-40 flex items-center gap-2 border-t border-slate-200 bg-white/95 px-3 py-2 shadow-[0_-4px_12px_rgba(0,0,0,0.06)] backdrop-blur sm:hidden"
      >
        <Button className="flex-1" onClick={() => downloadAll()} disabled={downloading}>
          {downloading ? "Preparing ZIP..." : `Download all (${ready})`}
        </Button>
        {!premium && (
          <Button asChild variant="premium">
            <Link href={paths.subscribe}>Upgrade</Link>
          </Button>
        )}
      </div>
    </>
  );
}
