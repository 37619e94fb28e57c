/**
 * Every server endpoint the web app uses, as a typed function; the URLs the browser loads by itself
 * (images, download links) are made here too. Outside web/src/api nothing names a server path
 * (tests/unit/web-boundaries.test.ts).
 */
import type { LoginInput, LogoutOthersResponse, RegisterInput, User } from "../../../contract/accounts.ts";
import type { SiteConfig } from "../../../contract/ads.ts";
import type { ApiKeyList, CreateApiKeyInput, CreatedApiKey } from "../../../contract/api-keys.ts";
import type { ContactInput } from "../../../contract/contact.ts";
import type {
  Batch,
  CompressResponse,
  Job,
  PreviewSize,
  QueueStatus,
  SubscriptionStatusResponse,
  Usage,
} from "../../../contract/jobs.ts";
import type { RecompressRequest, RecompressSettings, SavedSettings } from "../../../contract/settings.ts";
import { apiJson, apiRequest, throwIfNotOk } from "./client.ts";

const at = encodeURIComponent;

// Account

/** The current user, or null when signed out. */
export const getUser = () => apiJson<User | null>("GET", "/api/user");
export const login = (input: LoginInput) => apiJson<User>("POST", "/api/login", input);
export const register = (input: RegisterInput) => apiJson<User>("POST", "/api/register", input);
export const logout = () => apiRequest("POST", "/api/logout");
export const logoutOthers = () => apiJson<LogoutOthersResponse>("POST", "/api/logout-others", {});

// Settings, usage and the site's configuration

export const getSettings = () => apiJson<{ settings: SavedSettings }>("GET", "/api/settings");
export const saveSettings = (settings: SavedSettings) =>
  apiJson<{ settings: SavedSettings }>("PUT", "/api/settings", settings);
export const getUsage = () => apiJson<Usage>("GET", "/api/usage");
/** This deployment's billing mode and ad network. */
export const getSiteConfig = () => apiJson<SiteConfig>("GET", "/api/config");
export const sendContactMessage = (input: ContactInput) => apiJson<{ success: true }>("POST", "/api/contact", input);

// Developer API keys, managed with the session (the key-authenticated paths are contract/api-keys.ts V1)

/** The account's keys, never their secrets. */
export const listApiKeys = () => apiJson<ApiKeyList>("GET", "/api/keys");
/** A new key: the answer's `key` is the secret, shown once (409 past the account's limit). */
export const createApiKey = (input: CreateApiKeyInput) => apiJson<CreatedApiKey>("POST", "/api/keys", input);
/** Revokes a key: requests made with it are refused from then on. */
export const revokeApiKey = (id: string) => apiRequest("DELETE", `/api/keys/${at(id)}`);

// Jobs

export const listJobs = () => apiJson<{ jobs: Job[] }>("GET", "/api/jobs");
export const deleteJob = (id: string) => apiRequest("DELETE", `/api/jobs/${at(id)}`);
export const getQueueStatus = () => apiJson<QueueStatus>("GET", "/api/queue/status");
/**
 * Compresses the original the store still holds again with `settings` (issue 15, item 5); the answer is
 * a new batch whose job carries `sourceJobId`. The old result stays.
 */
export const recompressJob = (id: string, settings: RecompressSettings) =>
  apiJson<CompressResponse>("POST", `/api/jobs/${at(id)}/recompress`, { settings } satisfies RecompressRequest);
/** A job's result, with the right content type and file name. */
export const downloadUrl = (id: string) => `/api/download/${at(id)}`;
/** A job's original ("original") or its small thumbnail. */
export const previewUrl = (id: string, size: PreviewSize = "original") =>
  `/api/preview/${at(id)}${size === "original" ? "" : `?size=${size}`}`;
export const fetchResult = (id: string) => apiRequest("GET", downloadUrl(id));
/** A JPEG XL result as the JPEG it holds (the same pixels), for Compare: browsers may not show JPEG XL. */
export const heldJpegUrl = (id: string) => `${downloadUrl(id)}?as=jpeg`;

// Restore (issue 32)

/** A .jxl made from a JPEG → that JPEG, byte for byte; the answer names it (`photo.jpg`). */
export async function restoreJpeg(file: File): Promise<Response> {
  const res = await fetch(`/api/restore?name=${at(file.name)}`, {
    method: "POST",
    credentials: "include",
    headers: { "Content-Type": "image/jxl" },
    body: file,
  });
  await throwIfNotOk(res);
  return res;
}
/**
 * Every photo's latest completed result in one ZIP (409 when there is none); `"all"`: every version
 * still held, each named by its settings (`beach.q70.jpg`).
 */
export const fetchAllResultsZip = (versions: "latest" | "all" = "latest") =>
  apiRequest("GET", `/api/jobs/download.zip${versions === "all" ? "?versions=all" : ""}`);

// Batches

export type BatchAction = "pause" | "resume" | "cancel";
const batchPath = (id: string) => `/api/batches/${at(id)}`;
export const listBatches = () => apiJson<{ batches: Batch[] }>("GET", "/api/batches");
export const runBatchAction = ({ id, action }: { id: string; action: BatchAction }) =>
  action === "cancel" ? apiRequest("DELETE", batchPath(id)) : apiRequest("POST", `${batchPath(id)}/${action}`);
/** Every completed image of the batch again, from the originals the store still holds, as a new batch. */
export const recompressBatch = (id: string, settings: RecompressSettings) =>
  apiJson<CompressResponse>("POST", `${batchPath(id)}/recompress`, { settings } satisfies RecompressRequest);
export const batchZipUrl = (id: string, versions: "latest" | "all" = "latest") =>
  `${batchPath(id)}/download.zip${versions === "all" ? "?versions=all" : ""}`;

// Billing

export interface SubscriptionSession {
  sessionUrl: string;
}
export interface CancelResult {
  success: boolean;
  message: string;
}
/** Local test billing's checkout session (only when the server has no Stripe keys). */
export interface TestCheckoutSession {
  id: string;
  status: "open" | "paid" | "canceled";
  plan: string;
  price: string;
  periodDays: number;
}
export interface TestCheckoutResult {
  redirectTo: string;
}

export const getSubscriptionStatus = () => apiJson<SubscriptionStatusResponse>("GET", "/api/subscription/status");
/** An empty JSON body (spec §7); the answer is where checkout happens (Stripe, or our test page). */
export const createSubscription = () => apiJson<SubscriptionSession>("POST", "/api/create-subscription", {});
export const cancelSubscription = () => apiJson<CancelResult>("POST", "/api/subscription/cancel");
/** A Stripe Customer Portal URL, where the card and invoices are managed. */
export const openBillingPortal = () => apiJson<{ url: string }>("POST", "/api/billing/portal");
const testCheckoutPath = (id: string) => `/api/test-billing/${at(id)}`;
export const getTestCheckout = (id: string) => apiJson<TestCheckoutSession>("GET", testCheckoutPath(id));
export const payTestCheckout = (id: string) => apiJson<TestCheckoutResult>("POST", `${testCheckoutPath(id)}/pay`);
export const cancelTestCheckout = (id: string) => apiJson<TestCheckoutResult>("POST", `${testCheckoutPath(id)}/cancel`);
