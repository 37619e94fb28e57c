import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { isPremium } from "../../../../../contract/accounts.ts";
import { PLANS, PREMIUM_PRICE_LABEL } from "../../../../../contract/plans.ts";
import { paths } from "../../../../../contract/routes.ts";
import { ApiRequestError, messageOf } from "@web-api/client.ts";
import { queryKeys } from "@web-api/query-keys.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { useSiteConfig } from "../../ads/index.ts";
import { useUser } from "../../auth/index.ts";
import { useCreateSubscription } from "../data/create-subscription.ts";
import { refreshPlan } from "../data/get-subscription-status.ts";
import { PremiumFeatureList } from "./premium-features.tsx";
import { Spinner } from "./spinner.tsx";

/** How long the Premium Active card shows before subscribers are sent to the compressor. */
export const PREMIUM_REDIRECT_MS = 1500;
/** After Stripe's redirect the webhook may land a moment later: re-read the user meanwhile. */
const CONFIRM_POLL_MS = 2000;
const CONFIRM_GIVE_UP_MS = 60_000;

const ALREADY_SUBSCRIBED = {
  title: "Already Subscribed",
  description: "You already have an active premium subscription.",
} as const;

function PremiumActiveCard() {
  return (
    <Card className="border-amber-300" data-testid="premium-active">
      <CardHeader>
        <CardTitle>Premium Active</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <p className="text-slate-700">
          Your Premium subscription is active: unlimited compressions, no ads and priority processing. Taking you to the
          compressor…
        </p>
        <Button asChild>
          <Link href={paths.home}>Go to the compressor</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

function ConfirmingCard({ gaveUp }: { gaveUp: boolean }) {
  return (
    <Card>
      <CardContent className="flex items-center gap-3 pt-5" role="status">
        {gaveUp
          ? (
            <p className="text-slate-700">
              Your payment is still being confirmed. Premium switches on as soon as the payment provider confirms it;
              this page updates by itself.
            </p>
          )
          : (
            <>
              <Spinner className="h-5 w-5 text-brand-600" />
              <p className="text-slate-700">Confirming your payment…</p>
            </>
          )}
      </CardContent>
    </Card>
  );
}

/** /subscribe (spec §2, §4, §8): the Premium Plan card and Subscribe Now. Signed-in only (router). */
export function SubscribePage() {
  const { user } = useUser();
  const qc = useQueryClient();
  const [, navigate] = useLocation();
  const checkout = new URLSearchParams(useSearch()).get("checkout");
  const config = useSiteConfig();
  const create = useCreateSubscription();
  const [redirecting, setRedirecting] = useState(false);
  const [gaveUp, setGaveUp] = useState(false);
  const premium = Boolean(user && isPremium(user.subscriptionStatus));
  const confirming = checkout === "success" && !premium;

  // Subscribers see the Premium Active card, then go to the compressor.
  useEffect(() => {
    if (!premium) return;
    toast(
      checkout === "success"
        ? { title: "Premium Active", description: "Thank you for subscribing! Premium features are unlocked." }
        : ALREADY_SUBSCRIBED,
    );
    const timer = setTimeout(() => navigate(paths.home, { replace: true }), PREMIUM_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [premium, checkout, navigate]);

  useEffect(() => {
    if (checkout === "cancelled") toast({ title: "Checkout cancelled", description: "You have not been charged." });
  }, [checkout]);

  useEffect(() => {
    if (!confirming) return;
    const poll = setInterval(() => void qc.invalidateQueries({ queryKey: queryKeys.user }), CONFIRM_POLL_MS);
    const stop = setTimeout(() => setGaveUp(true), CONFIRM_GIVE_UP_MS);
    return () => {
      clearInterval(poll);
      clearTimeout(stop);
    };
  }, [confirming, qc]);

  const subscribe = () => {
    setRedirecting(true);
    create.mutate(undefined, {
      onSuccess: ({ sessionUrl }) => {
        // Our own test checkout is a page of the app; Stripe Checkout is another site.
        if (sessionUrl.startsWith("/")) navigate(sessionUrl);
        else globalThis.location.assign(sessionUrl);
      },
      onError: (err) => {
        setRedirecting(false);
        if (err instanceof ApiRequestError && err.status === 409) {
          toast(ALREADY_SUBSCRIBED);
          void refreshPlan(qc);
          return;
        }
        toast({
          title: "Subscription Error",
          description: messageOf(err, "Failed to create subscription. Please try again."),
          variant: "destructive",
        });
      },
    });
  };

  const busy = redirecting || create.isPending;
  return (
    <main className="mx-auto max-w-xl px-4 py-12">
      {premium
        ? <PremiumActiveCard />
        : confirming
        ? <ConfirmingCard gaveUp={gaveUp} />
        : (
          <Card className="border-amber-300 shadow-md">
            <CardHeader>
              <p className="text-sm font-semibold uppercase tracking-wide text-amber-700">SqueezeJPEG</p>
              <CardTitle className="text-2xl">Premium Plan</CardTitle>
              <p className="text-3xl font-bold" aria-label={`Price: ${PREMIUM_PRICE_LABEL}`}>
                $9.99<span className="text-base font-medium text-slate-500">/month</span>
              </p>
            </CardHeader>
            <CardContent className="space-y-6">
              <PremiumFeatureList />
              <Button size="lg" variant="premium" className="w-full" onClick={subscribe} disabled={busy}>
                {busy
                  ? (
                    <>
                      <Spinner />Redirecting to Stripe...
                    </>
                  )
                  : "Subscribe Now"}
              </Button>
              <p className="text-center text-xs text-slate-500">
                {config?.billingMode === "test"
                  ? "Local test billing: you will see a test checkout page and no card is charged."
                  : "Secure payment by Stripe. Cancel anytime; Premium lasts until the end of the paid month."}
              </p>
              <p className="text-center text-sm text-slate-600">
                The free plan stays free: {PLANS.free.dailyCompressions} compressions a day, files up to 10 MB.
              </p>
            </CardContent>
          </Card>
        )}
    </main>
  );
}
