import { createApp } from "../../server/app.ts";
import type { AppDeps } from "../../server/app-env.ts";
import { createDb } from "../../db/client.ts";
import { LoginThrottle } from "../../server/services/login-throttle.ts";
import { RegistrationLimit } from "../../server/services/registration-limit.ts";
import { type ByteStore, MemoryStore } from "../../server/store/mod.ts";
import {
  CompressionService,
  type CompressionServiceOptions,
} from "../../server/services/compression/compression-service.ts";
import type { Compressor } from "../../server/services/compression/compressor.ts";
import { createCodecCompressor } from "../../server/services/compression/codec-compressor.ts";
import { LocalTestBilling } from "../../server/services/billing/local-test-billing.ts";
import { inlinePasswords } from "../../server/services/passwords.ts";
import { HeldCompressor } from "./held-compressor.ts";
import { waitFor } from "./wait-for.ts";

/** One for every test app: its dummy hash is made once. */
const PASSWORDS = inlinePasswords();

export const ORIGIN = "http://localhost";

/** Stands in where a test never compresses: using it is a test bug. */
const noCompressor: Compressor = {
  size: 1,
  compress: () => Promise.reject(new Error("This test app has no codec pool: pass { pool: true }")),
  score: () => Promise.reject(new Error("This test app has no codec pool: pass { pool: true }")),
  close: () => Promise.resolve(),
};

export interface TestAppOptions extends Partial<AppDeps> {
  /** Run the real WASM pool with this many workers. */
  pool?: number;
  compressor?: Compressor;
  maxStoreBytes?: number;
  /** The database (default: a fresh `:memory:` one). */
  databaseUrl?: string;
  /** The byte store (default: a fresh memory store). */
  store?: ByteStore;
  resultTtlMs?: number;
  now?: () => number;
  /** Admission records jobs on the shared queue (ADR 018); instances with workers pull them. */
  sharedQueue?: boolean;
  leaseMs?: number;
  /** REGISTRATIONS_PER_HOUR (default 1000: tests sign up many users from one address). */
  registrationsPerHour?: number;
}

/** A fresh app on its own `:memory:` database. */
export async function createTestApp(options: TestAppOptions = {}) {
  const {
    pool,
    compressor: given,
    maxStoreBytes,
    resultTtlMs,
    now,
    store,
    databaseUrl,
    sharedQueue,
    leaseMs,
    registrationsPerHour,
    ...overrides
  } = options;
  const database = await createDb({ url: databaseUrl ?? ":memory:" });
  const compressor = given ?? (pool ? createCodecCompressor({ workers: pool, jobTimeoutMs: 30_000 }) : noCompressor);
  const byteStore = store ?? new MemoryStore();
  const compression = new CompressionService({
    db: database.db,
    compressor,
    store: byteStore,
    maxStoreBytes: maxStoreBytes ?? 512 * 1024 * 1024,
    resultTtlMs: resultTtlMs ?? 3_600_000,
    now,
    sharedQueue,
    sharedDatabase: sharedQueue,
    leaseMs,
  });
  const deps: AppDeps = {
    db: database.db,
    throttle: new LoginThrottle(database.db),
    // Tests sign up many users from one address and poll fast; both caps have their own tests.
    registrations: new RegistrationLimit(database.db, registrationsPerHour ?? 1000),
    passwords: PASSWORDS,
    pollBudget: { burst: 1e9, perSecond: 1e9 },
    compression,
    restorer: compressor.restore ? { restore: (jxl) => compressor.restore!(jxl) } : undefined,
    billing: new LocalTestBilling(),
    storeKind: byteStore.kind,
    trustedOrigins: [],
    secureCookies: false,
    logRequests: false,
    ...overrides,
  };
  const app = createApp(deps);
  const request = (path: string, init: RequestInit = {}, env?: unknown) =>
    app.request(new Request(new URL(path, ORIGIN), init), undefined, env as never);
  const close = async () => {
    // A job whose held call the test finished still stores its result and records it: on a busy machine that
    // outlasts the short drain below, and the database closed under it fails the job into the next test's log.
    if (given instanceof HeldCompressor) {
      await waitFor(() => compression.scheduler.runningCount <= given.holding, {
        message: () => `${compression.scheduler.runningCount} jobs still running, ${given.holding} held`,
      });
    }
    await compression.drain(pool ? 5_000 : 100);
    await compressor.close();
    database.close();
  };
  return { app, deps, request, compression, close, db: database.db };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * Another instance of the service on the test app's database and a shared byte store, pulling from the shared
 * queue (as a second server process would), its lease timers started.
 */
export function peerInstance(
  t: TestApp,
  compressor: Compressor,
  store: ByteStore,
  options: Partial<CompressionServiceOptions> = {},
): CompressionService {
  const s = new CompressionService({
    db: t.db,
    compressor,
    store,
    maxStoreBytes: 64 * 1024 * 1024,
    resultTtlMs: 3_600_000,
    sharedDatabase: true,
    sharedQueue: true,
    pollMs: 20,
    ...options,
  });
  s.startLeaseTimers();
  return s;
}

export function jsonInit(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) };
}

/** The `name=value` pair of the session cookie a response set. */
export function sessionCookie(res: Response): string {
  const header = res.headers.get("set-cookie") ?? "";
  const match = header.match(/session=([^;]*)/);
  if (!match || !match[1]) throw new Error(`No session cookie in: ${header}`);
  return `session=${match[1]}`;
}

/** Registers a user and returns the cookie that signs them in. */
export async function signUp(
  t: TestApp,
  username = "alice",
  password = "correct horse",
  extra: Record<string, unknown> = {},
) {
  const res = await t.request("/api/register", jsonInit("POST", { username, password, ...extra }));
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  return { cookie: sessionCookie(res), user: await res.json() };
}

/** Makes a user Premium directly in the database (billing has its own tests). */
export async function makePremium(t: TestApp, username: string): Promise<void> {
  const { users } = await import("../../db/schema.ts");
  const { eq } = await import("drizzle-orm");
  await t.db.update(users).set({ subscriptionStatus: "active" }).where(eq(users.username, username));
}

/** POST /api/compress with these files and fields. */
/** Settings first, as the web app sends them (the server begins each file's work with the fields before it). */
export function upload(t: TestApp, cookie: string, files: File[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append("images", f);
  return t.request("/api/compress", { method: "POST", headers: { Cookie: cookie }, body: form });
}

/** Every job ended, and every deferred score measured: a `waitForJobs` condition. */
export const allSettled = (jobs: Array<{ status: string; scorePending?: boolean }>) =>
  jobs.length > 0 && jobs.every((j) => (j.status === "completed" && !j.scorePending) || j.status === "error");

/** Polls GET /api/jobs until `done` holds for the listed jobs. */
export async function waitForJobs(
  t: TestApp,
  cookie: string,
  done: (jobs: Array<{ id: string; status: string; scorePending?: boolean }>) => boolean,
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.request("/api/jobs", { headers: { Cookie: cookie } });
    const { jobs } = await res.json();
    if (done(jobs)) return jobs;
    if (Date.now() > deadline) {
      throw new Error(`Jobs did not settle: ${JSON.stringify(jobs.map((j: { status: string }) => j.status))}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const fixture = async (name: string, as = name) =>
  new File([await Deno.readFile(new URL(`../fixtures/${name}`, import.meta.url))], as, { type: "image/jpeg" });
