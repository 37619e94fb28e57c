/** Ad placements and the public site configuration the web app reads at start (GET /api/config). */
export const AD_PLACEMENTS = ["landing", "compressor", "sidebar", "article"] as const;
export type AdPlacement = (typeof AD_PLACEMENTS)[number];

export type BillingMode = "stripe" | "test";

export interface SiteConfig {
  /** "test" = local test billing (no Stripe keys): checkout happens on a page of ours. */
  billingMode: BillingMode;
  /** The AdSense publisher id (`ca-pub-…`); null = house ads promoting Premium. */
  adsenseClient: string | null;
  /** AdSense ad unit ids per placement; a placement without one shows a house ad. */
  adSlots: Partial<Record<AdPlacement, string>>;
}

/** `ADSENSE_SLOTS` syntax: `landing=1234567890,sidebar=2345678901`. */
export const AD_SLOTS_PATTERN =
  /^(landing|compressor|sidebar|article)=\d{4,20}(,(landing|compressor|sidebar|article)=\d{4,20})*$/;

export function parseAdSlots(value: string | undefined): Partial<Record<AdPlacement, string>> {
  const slots: Partial<Record<AdPlacement, string>> = {};
  if (!value) return slots;
  for (const pair of value.split(",")) {
    const [name, id] = pair.split("=");
    if (id && (AD_PLACEMENTS as readonly string[]).includes(name ?? "")) slots[name as AdPlacement] = id;
  }
  return slots;
}

/** Local storage key and values of the cookie banner (spec §4, §9). */
export const COOKIE_CONSENT_KEY = "cookieConsent";
export type CookieConsent = "accepted" | "declined";
