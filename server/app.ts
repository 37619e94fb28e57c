import { type Context, Hono } from "hono";
import type { AppDeps, AppEnv } from "./app-env.ts";
import { httpErrorOf } from "./http-error.ts";
import { createLogger } from "./log.ts";
import {
  BODY_DEADLINES,
  BODY_IDLE_MS,
  BodyBrokenOff,
  type BodyDeadlines,
  bodyGuard,
  JSON_BODY_LIMIT,
  uploadDeadlineMs,
} from "./middleware/body-guard.ts";
import { refuseForeignOrigin } from "./middleware/csrf.ts";
import { pollBudget } from "./middleware/poll-budget.ts";
import { requestLog } from "./middleware/request-log.ts";
import { securityHeaders } from "./middleware/security-headers.ts";
import { loadSession } from "./middleware/session.ts";
import { restoreRoutes } from "./routes/restore.ts";
import { authRoutes } from "./routes/auth.ts";
import { contactRoutes } from "./routes/contact.ts";
import { accountStateRoutes } from "./routes/account-state.ts";
import { batchRoutes } from "./routes/batches.ts";
import { compressRoutes, MAX_REQUEST_BYTES } from "./routes/compress.ts";
import { apiKeyRoutes } from "./routes/api-keys.ts";
import { v1Routes } from "./routes/v1.ts";
import { imageBodyBytesAllowed } from "./routes/read-image-body.ts";
import { API_RATE_LIMIT, V1 } from "../contract/api-keys.ts";
import { jobRoutes } from "./routes/jobs.ts";
import { billingRoutes, WEBHOOK_MAX_BYTES } from "./routes/billing.ts";
import { siteConfigRoutes } from "./routes/site-config.ts";
import { testBillingRoutes } from "./routes/test-billing.ts";
import { serveSite } from "./static-site.ts";
import { planOf } from "./services/plan.ts";
import { type PlanLimits, PLANS } from "../contract/plans.ts";

/** Body limits by route; every other body (JSON, or none expected) gets the small one. */
const BODY_LIMITS: Record<string, number> = {
  "/api/compress": MAX_REQUEST_BYTES,
  // One image: the largest plan's file and its multipart framing (the plan's own limit is the route's).
  [V1.compress]: Math.max(...Object.values(PLANS).map(imageBodyBytesAllowed)),
  "/api/stripe/webhook": WEBHOOK_MAX_BYTES,
};

/** The most bytes one upload may carry on this plan: its files at their largest, within the request cap. */
export const uploadBytesAllowed = (plan: PlanLimits): number =>
  Math.min(plan.maxFilesPerUpload * plan.maxFileBytes, MAX_REQUEST_BYTES);

/**
 * How long this request's whole body may take (ADR 022): uploads by the signed-in
 * user's plan (asked when the route reads the body, after the session or the API
 * key is checked; no user counts as free), every other body the small deadline.
 * An API upload carries one image, so its deadline is one file's.
 */
export function bodyDeadlineFor(c: Context<AppEnv>, d: BodyDeadlines): number {
  const upload = c.req.path === "/api/compress"
    ? uploadBytesAllowed
    : c.req.path === V1.compress
    ? imageBodyBytesAllowed
    : null;
  if (!upload) return d.smallMs;
  const user = c.get("user");
  return uploadDeadlineMs(upload(user ? planOf(user) : PLANS.free), d);
}

/** Builds the Hono app around its dependencies: middleware, `/api` sub-apps, the site. */
export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const deadlines = { ...BODY_DEADLINES, ...deps.bodyDeadlines };
  const log = deps.log ?? createLogger("info");
  if (deps.logRequests) app.use(requestLog(log));
  app.use(securityHeaders({ adsense: Boolean(deps.adsense), hsts: deps.secureCookies }));
  app.use(bodyGuard({
    limitFor: (c) => BODY_LIMITS[c.req.path] ?? JSON_BODY_LIMIT,
    idleMs: deps.bodyIdleMs ?? BODY_IDLE_MS,
    deadlineFor: (c) => bodyDeadlineFor(c, deadlines),
  }));
  app.use(async (c, next) => {
    c.set("deps", deps);
    await next();
  });

  app.get("/healthz", (c) => c.json({ ok: true }));

  // The developer API, before /api so that no session, poll budget or CSRF check runs for it: a
  // request there is its API key's (routes/v1.ts); it answers every /api/v1 path itself.
  app.route("/api/v1", v1Routes(deps.apiRateLimit ?? API_RATE_LIMIT, deps.keyLookupLimits));

  const api = new Hono<AppEnv>();
  api.use(refuseForeignOrigin, pollBudget(deps.pollBudget), loadSession);
  api.route("/", authRoutes);
  api.route("/", contactRoutes);
  api.route("/", compressRoutes);
  api.route("/", apiKeyRoutes);
  api.route("/", jobRoutes);
  api.route("/", restoreRoutes);
  api.route("/", batchRoutes);
  api.route("/", accountStateRoutes);
  api.route("/", billingRoutes);
  api.route("/", siteConfigRoutes);
  if (deps.billing.mode === "test") api.route("/", testBillingRoutes);
  api.all("*", (c) => c.json({ error: `No API route for ${c.req.method} ${c.req.path}` }, 404));
  app.route("/api", api);

  if (deps.webDist) app.get("*", serveSite(deps.webDist, deps.storeKind, log));
  app.notFound((c) => c.json({ error: "Not found" }, 404));

  app.onError((err, c) => {
    if (err instanceof BodyBrokenOff) {
      // A client that leaves mid-body is not our error: one line to count them by, no stack.
      log.info("request body broken off", { method: c.req.method, path: c.req.path, reason: String(err.reason) });
    }
    // A domain error's code (services), an ApiError (routes, middleware) or a codec's code: its status, once here.
    const known = httpErrorOf(err);
    if (known) return c.json({ error: known.message }, known.status, known.headers);
    log.error("unhandled error", { method: c.req.method, path: c.req.path, error: err });
    return c.json({ error: "Something went wrong on our side; please try again" }, 500);
  });
  return app;
}

export type App = ReturnType<typeof createApp>;
