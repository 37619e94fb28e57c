/**
 * A fake Stripe API on 127.0.0.1 for the real `stripe` SDK: it records every
 * request (form fields flattened as Stripe encodes them, e.g.
 * `line_items[0][price]`) and serves the few endpoints billing uses.
 */
import Stripe from "stripe";
import { StripeBilling } from "../../server/services/billing/stripe-billing.ts";

export interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  headers: Headers;
}

export interface FakeSubscription {
  id: string;
  customer: string;
  status: string;
  currentPeriodEnd: number;
  cancelAtPeriodEnd?: boolean;
  metadata?: Record<string, string>;
}

/** A Stripe subscription object (API 2025+ shape: the period lives on the items). */
export function subscriptionObject(s: FakeSubscription) {
  return {
    id: s.id,
    object: "subscription",
    customer: s.customer,
    status: s.status,
    cancel_at_period_end: s.cancelAtPeriodEnd ?? false,
    cancel_at: null,
    ended_at: s.status === "canceled" ? s.currentPeriodEnd : null,
    metadata: s.metadata ?? {},
    items: {
      object: "list",
      data: [{ id: `si_${s.id}`, object: "subscription_item", current_period_end: s.currentPeriodEnd }],
    },
  };
}

const stripeError = (status: number, message: string) =>
  Response.json({ error: { type: "invalid_request_error", message } }, { status });

export class FakeStripe {
  readonly requests: RecordedRequest[] = [];
  readonly subscriptions = new Map<string, FakeSubscription>();
  /** Paths that answer 500 (the SDK's retries see the same answer). */
  readonly failing = new Set<string>();
  #server: Deno.HttpServer<Deno.NetAddr>;
  #sessions = 0;

  constructor() {
    this.#server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => this.#handle(req));
  }

  get url(): string {
    return `http://127.0.0.1:${this.#server.addr.port}`;
  }

  /** The requests made to `method path`. */
  calls(method: string, path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  async #handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const body = req.method === "GET" ? url.searchParams : new URLSearchParams(await req.text());
    const params = Object.fromEntries(body.entries());
    this.requests.push({ method: req.method, path: url.pathname, params, headers: req.headers });
    if (this.failing.has(url.pathname)) return stripeError(500, "Fake Stripe was told to fail");

    if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
      const id = `cs_test_${++this.#sessions}`;
      return Response.json({
        id,
        object: "checkout.session",
        mode: params.mode,
        client_reference_id: params.client_reference_id ?? null,
        customer: params.customer ?? null,
        url: `https://checkout.stripe.test/c/pay/${id}`,
      });
    }
    const sub = url.pathname.match(/^\/v1\/subscriptions\/([^/]+)$/);
    if (sub) {
      const found = this.subscriptions.get(sub[1]!);
      if (!found) return stripeError(404, `No such subscription: '${sub[1]}'`);
      if (req.method === "POST" && params.cancel_at_period_end !== undefined) {
        found.cancelAtPeriodEnd = params.cancel_at_period_end === "true";
      }
      return Response.json(subscriptionObject(found));
    }
    if (req.method === "POST" && url.pathname === "/v1/billing_portal/sessions") {
      return Response.json({
        id: "bps_test_1",
        object: "billing_portal.session",
        customer: params.customer,
        return_url: params.return_url,
        url: `https://billing.stripe.test/p/session/${params.customer}`,
      });
    }
    return stripeError(404, `Fake Stripe has no route for ${req.method} ${url.pathname}`);
  }

  async close(): Promise<void> {
    await this.#server.shutdown();
  }
}

export const WEBHOOK_SECRET = "whsec_test_fake";
export const PRICE_ID = "price_test_premium";

/** StripeBilling wired to a fake Stripe. */
export function fakeStripeBilling(fake: FakeStripe, publicUrl: string | null = "https://squeeze.example") {
  return new StripeBilling({
    secretKey: "sk_test_fake",
    webhookSecret: WEBHOOK_SECRET,
    priceId: PRICE_ID,
    publicUrl,
    apiBase: fake.url,
  });
}

/** An event body and a valid Stripe-Signature header for it. */
export async function signedEvent(
  type: string,
  object: Record<string, unknown>,
  id = `evt_${crypto.randomUUID().replaceAll("-", "")}`,
  secret = WEBHOOK_SECRET,
) {
  const payload = JSON.stringify({
    id,
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  });
  // Under Deno only the async helpers work (WebCrypto).
  const signer = new Stripe("sk_test_fake", { httpClient: Stripe.createFetchHttpClient() });
  const signature = await signer.webhooks.generateTestHeaderStringAsync({ payload, secret });
  return { id, payload, signature };
}
