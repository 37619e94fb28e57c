import { useLayoutEffect, useRef } from "react";
import { Link } from "wouter";
import { paths } from "../../../../../contract/routes.ts";
import { Button } from "../../../components/ui/button.tsx";
import { saveConsent, useCookieConsent } from "../lib/consent.ts";
import { useAdsAudience } from "../lib/use-ads-audience.ts";
import { useMounted } from "../lib/use-mounted.ts";

/**
 * Cookie consent (spec §4): shown until the choice is stored as "accepted" or
 * "declined" in local storage, only to people who see ads (never to Premium
 * users). Declining keeps the ads non-personalised.
 */
export function CookieBanner() {
  const mounted = useMounted();
  const { known, showAds } = useAdsAudience();
  const consent = useCookieConsent();
  const ref = useRef<HTMLElement>(null);
  const visible = mounted && known && showAds && consent === null;

  // Room at the bottom of the page, so the banner never covers the end of it; its height is
  // published as --cookie-banner-height so notices (toaster.tsx) sit above its buttons.
  useLayoutEffect(() => {
    if (!visible || !ref.current) return;
    const body = document.body;
    const root = document.documentElement;
    const previous = body.style.paddingBottom;
    const height = `${ref.current.offsetHeight}px`;
    body.style.paddingBottom = height;
    root.style.setProperty("--cookie-banner-height", height);
    return () => {
      body.style.paddingBottom = previous;
      root.style.removeProperty("--cookie-banner-height");
    };
  }, [visible]);

  if (!visible) return null;
  return (
    <section
      ref={ref}
      aria-label="Cookie consent"
      data-testid="cookie-banner"
      className="fixed inset-x-0 bottom-0 z-50 border-t border-slate-200 bg-white/95 shadow-[0_-4px_12px_rgba(0,0,0,0.06)] backdrop-blur"
    >
      <div className="mx-auto flex max-w-5xl items-center justify-between gap-3 px-3 py-2 sm:px-4">
        <p className="text-xs text-slate-700 sm:text-sm">
          We use cookies for sign-in and ads; decline for non-personalised ads only.{" "}
          <Link href={paths.privacy} className="font-medium text-brand-700 underline">Privacy Policy</Link>
        </p>
        <div className="flex shrink-0 gap-2">
          <Button variant="secondary" size="sm" onClick={() => saveConsent("declined")}>Decline</Button>
          <Button size="sm" onClick={() => saveConsent("accepted")}>Accept</Button>
        </div>
      </div>
    </section>
  );
}
