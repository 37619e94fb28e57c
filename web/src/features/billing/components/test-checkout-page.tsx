import { useLocation } from "wouter";
import { displayName } from "../../../../../contract/accounts.ts";
import { paths } from "../../../../../contract/routes.ts";
import { ApiRequestError, messageOf } from "@web-api/client.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card.tsx";
import { QueryError, QueryLoading } from "../../../components/ui/query-state.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { useUser } from "../../auth/index.ts";
import { useCancelTestCheckout, usePayTestCheckout, useTestCheckout } from "../data/test-checkout.ts";
import { Spinner } from "./spinner.tsx";

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4 py-2 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-medium text-slate-900">{value}</dd>
    </div>
  );
}

/**
 * Local test billing's checkout (DESIGN §6): plainly a test, with Pay and
 * Cancel. Pay switches Premium on for 30 days exactly as a Stripe webhook would.
 */
export function TestCheckoutPage({ sessionId }: { sessionId: string }) {
  const { user } = useUser();
  const [, navigate] = useLocation();
  const session = useTestCheckout(sessionId);
  const pay = usePayTestCheckout(sessionId);
  const cancel = useCancelTestCheckout(sessionId);
  const busy = pay.isPending || cancel.isPending;

  const onPay = () =>
    pay.mutate(undefined, {
      onSuccess: ({ redirectTo }) => navigate(redirectTo),
      onError: (err) =>
        toast({
          title: "Payment failed",
          description: messageOf(err, "The test payment did not go through"),
          variant: "destructive",
        }),
    });
  const onCancel = () =>
    cancel.mutate(undefined, {
      onSuccess: ({ redirectTo }) => navigate(redirectTo),
      onError: () => navigate(paths.subscribe),
    });

  let body: React.ReactNode;
  if (session.isPending) {
    body = <QueryLoading what="the test checkout" className="justify-center py-8" />;
  } else if (session.isError) {
    const missing = session.error instanceof ApiRequestError && [400, 404].includes(session.error.status);
    body = missing
      ? <p className="text-slate-700">This test checkout does not exist.</p>
      : <QueryError what="the test checkout" query={session} />;
  } else if (session.data.status !== "open") {
    body = (
      <div className="space-y-4">
        <p className="text-slate-700">
          This test checkout is already {session.data.status === "paid" ? "paid" : "cancelled"}.
        </p>
        <Button variant="secondary" onClick={() => navigate(paths.subscribe)}>Back to the Premium plan</Button>
      </div>
    );
  } else {
    const s = session.data;
    body = (
      <div className="space-y-6">
        <dl className="divide-y divide-slate-100">
          <Row label="Plan" value={`SqueezeJPEG ${s.plan}`} />
          <Row label="Price" value={s.price} />
          <Row label="Premium for" value={`${s.periodDays} days (test billing does not renew)`} />
          {user && <Row label="Account" value={`${displayName(user)}${user.email ? ` (${user.email})` : ""}`} />}
        </dl>
        <div className="flex gap-3">
          <Button className="flex-1" size="lg" onClick={onPay} disabled={busy}>
            {pay.isPending
              ? (
                <>
                  <Spinner />Paying...
                </>
              )
              : "Pay"}
          </Button>
          <Button className="flex-1" size="lg" variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        </div>
      </div>
    );
  }

  return (
    <main className="mx-auto max-w-lg space-y-6 px-4 py-12">
      <div role="note" className="rounded-lg border-2 border-dashed border-amber-400 bg-amber-50 p-4 text-amber-950">
        <h1 className="text-lg font-bold">Test checkout</h1>
        <p className="mt-1 text-sm">
          This is a test checkout, not a real payment. This server runs without Stripe keys (local test billing): no
          card details are asked for and nothing is charged. Pay switches Premium on for 30 days.
        </p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Subscribe to Premium</CardTitle>
        </CardHeader>
        <CardContent>{body}</CardContent>
      </Card>
    </main>
  );
}
