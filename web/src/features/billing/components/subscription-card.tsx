import { useState } from "react";
import { Link } from "wouter";
import { isPremium } from "../../../../../contract/accounts.ts";
import { PLANS } from "../../../../../contract/plans.ts";
import { paths } from "../../../../../contract/routes.ts";
import { messageOf } from "@web-api/client.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { QueryError, QueryLoading } from "../../../components/ui/query-state.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { useSiteConfig } from "../../ads/index.ts";
import { useUser } from "../../auth/index.ts";
import { useCancelSubscription } from "../data/cancel-subscription.ts";
import { useSubscriptionStatus } from "../data/get-subscription-status.ts";
import { useOpenBillingPortal } from "../data/open-billing-portal.ts";
import { formatPeriodEnd } from "./format-period.ts";
import { PlanBadge } from "./plan-badge.tsx";
import { Spinner } from "./spinner.tsx";

function CancelControl({ periodEnd }: { periodEnd: number | null }) {
  const cancel = useCancelSubscription();
  const [asking, setAsking] = useState(false);
  const confirm = () =>
    cancel.mutate(undefined, {
      onSuccess: ({ message }) => {
        setAsking(false);
        toast({ title: "Subscription Cancelled", description: message });
      },
      onError: (err) =>
        toast({
          title: "Cancellation Failed",
          description: messageOf(err, "Failed to cancel subscription"),
          variant: "destructive",
        }),
    });

  if (!asking) {
    return <Button variant="secondary" size="sm" onClick={() => setAsking(true)}>Cancel Subscription</Button>;
  }
  return (
    <div role="group" aria-label="Confirm cancellation" className="space-y-2 rounded-md bg-slate-50 p-3">
      <p className="text-sm text-slate-700">
        Cancel Premium? It stays active{periodEnd
          ? ` until ${formatPeriodEnd(periodEnd)}`
          : " until the end of the paid period"} and does not renew.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="destructive" size="sm" onClick={confirm} disabled={cancel.isPending}>
          {cancel.isPending
            ? (
              <>
                <Spinner />Cancelling...
              </>
            )
            : "Yes, cancel"}
        </Button>
        <Button variant="ghost" size="sm" onClick={() => setAsking(false)} disabled={cancel.isPending}>
          Keep Premium
        </Button>
      </div>
    </div>
  );
}

function ManageBilling() {
  const portal = useOpenBillingPortal();
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={portal.isPending}
      onClick={() =>
        portal.mutate(undefined, {
          onError: (err) =>
            toast({
              title: "Billing portal unavailable",
              description: messageOf(err, "The billing portal could not be opened"),
              variant: "destructive",
            }),
        })}
    >
      Manage billing
    </Button>
  );
}

/**
 * The sidebar's subscription status card (spec §2, §4): plan, renewal or
 * expiry date, cancel flow, and the way to Premium. Fetches its own status.
 */
export function SubscriptionCard() {
  const { user } = useUser();
  const status = useSubscriptionStatus(Boolean(user));
  const config = useSiteConfig();
  if (!user) return null;

  const s = status.data ?? null;
  // When the status cannot be read the user record still knows the plan: shown under the notice.
  const premium = s ? s.hasActiveSubscription : isPremium(user.subscriptionStatus);
  const stripe = config?.billingMode === "stripe";
  return (
    <Card data-testid="subscription-card">
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle className="text-base">Subscription</CardTitle>
        <PlanBadge premium={premium} />
      </CardHeader>
      <CardContent className="space-y-3">
        {status.isError && <QueryError what="your subscription" query={status} />}
        {status.isPending ? <QueryLoading what="your subscription" /> : premium
          ? (
            <>
              <p className="font-semibold text-green-700">Premium Active</p>
              {s?.cancelAtPeriodEnd
                ? (
                  <p className="text-sm text-slate-700" data-testid="subscription-expiry">
                    Cancelled: Premium ends on{" "}
                    {s.currentPeriodEnd ? formatPeriodEnd(s.currentPeriodEnd) : "the end of the period"}.
                  </p>
                )
                : s?.currentPeriodEnd
                ? (
                  <p className="text-sm text-slate-600" data-testid="subscription-renewal">
                    {stripe
                      ? `Renews on ${formatPeriodEnd(s.currentPeriodEnd)}.`
                      // What the test checkout said: its 30 days end and are not renewed.
                      : `Premium until ${formatPeriodEnd(s.currentPeriodEnd)} (test billing does not renew).`}
                  </p>
                )
                : null}
              <div className="flex flex-wrap gap-2">
                {!s?.cancelAtPeriodEnd && <CancelControl periodEnd={s?.currentPeriodEnd ?? null} />}
                {stripe && <ManageBilling />}
              </div>
            </>
          )
          : (
            <>
              <p className="font-semibold text-slate-900">Free Plan</p>
              {s?.message && (
                <p role="note" className="rounded-md bg-amber-50 p-2 text-sm text-amber-900">{s.message}</p>
              )}
              <ul className="space-y-1 text-sm text-slate-600">
                <li>{PLANS.free.dailyCompressions} compressions per day</li>
                <li>Files up to 10 MB, {PLANS.free.maxFilesPerUpload} per upload</li>
                <li>Ads and standard queue</li>
              </ul>
              <div className="flex flex-wrap gap-2">
                <Button asChild variant="premium" size="sm">
                  <Link href={paths.subscribe}>Upgrade to Premium</Link>
                </Button>
                {stripe && s?.subscriptionStatus === "past_due" && <ManageBilling />}
              </div>
            </>
          )}
      </CardContent>
    </Card>
  );
}
