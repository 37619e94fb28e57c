import type { Db } from "../db/client.ts";
import type { ApiKeyRow, UserRow } from "../db/schema.ts";
import type { LoginThrottle } from "./services/login-throttle.ts";
import type { RegistrationLimit } from "./services/registration-limit.ts";
import type { CompressionService } from "./services/compression/compression-service.ts";
import type { Restorer } from "./services/restore.ts";
import type { BillingProvider } from "./services/billing/provider.ts";
import type { AdPlacement } from "../contract/ads.ts";
import type { StoreKind } from "../contract/storage.ts";
import type { PollBudgetOptions } from "./middleware/poll-budget.ts";
import type { TokenBucketOptions } from "./middleware/token-buckets.ts";
import type { KeyLookupLimits } from "./middleware/key-lookup-budget.ts";
import type { BodyDeadlines } from "./middleware/body-guard.ts";
import type { Logger } from "./log.ts";
import type { PasswordHasher } from "./services/passwords.ts";

/** What the composition root hands to the app; tests build their own. */
export interface AppDeps {
  db: Db;
  /** Sign-in failures, counted in `db` (ADR 019). */
  throttle: LoginThrottle;
  /** Sign-ups per address (REGISTRATIONS_PER_HOUR), counted in `db`. */
  registrations: RegistrationLimit;
  /** Where passwords are hashed: the server's worker (ADR 041), or the request's thread (tests). */
  passwords: PasswordHasher;
  compression: CompressionService;
  /** Rebuilds a JPEG from a JPEG XL file (the codec pool); absent: restore answers 503. */
  restorer?: Restorer;
  /** Stripe, or local test billing when no Stripe keys are set. */
  billing: BillingProvider;
  /** The AdSense account (ADSENSE_CLIENT, ADSENSE_SLOTS); absent = house ads. */
  adsense?: { client: string; slots: Partial<Record<AdPlacement, string>> };
  /** Folder of the built SPA; absent in API-only tests. */
  webDist?: string;
  /** The byte store's kind: picks the variant of each page whose statements about images hold. */
  storeKind: StoreKind;
  /** Extra origins allowed to send state-changing requests (PUBLIC_URL). */
  trustedOrigins: string[];
  /** PUBLIC_URL is https: Secure cookies and HSTS. */
  secureCookies: boolean;
  logRequests: boolean;
  /** The structured log (server/log.ts; default: info and above on the console). */
  log?: Logger;
  /** Per-session budget for the polled routes (default DEFAULT_POLL_BUDGET). */
  pollBudget?: PollBudgetOptions;
  /** Per-key rate limit on /api/v1 (default API_RATE_LIMIT, contract/api-keys.ts; ADR 025). */
  apiRateLimit?: TokenBucketOptions;
  /** Budgets for lookups of API keys not yet seen to work (default KEY_LOOKUP_LIMITS; ADR 028). */
  keyLookupLimits?: KeyLookupLimits;
  /** How long a request body may send nothing before it is dropped (default BODY_IDLE_MS). */
  bodyIdleMs?: number;
  /** How long a whole request body may take to arrive (default BODY_DEADLINES; ADR 022). */
  bodyDeadlines?: Partial<BodyDeadlines>;
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    user: UserRow | null;
    sessionToken: string | null;
    /** The key that authenticated an /api/v1 request (unset elsewhere). */
    apiKey: ApiKeyRow | undefined;
  };
}
