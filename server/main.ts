/** Composition root: env → db → app → Deno.serve; SIGTERM/SIGINT shut down cleanly. */
import { fileURLToPath } from "node:url";
import { createDb } from "../db/client.ts";
import { createApp } from "./app.ts";
import { EnvError, parseEnv } from "./env.ts";
import { log, setLogLevel } from "./log.ts";
import { LoginThrottle } from "./services/login-throttle.ts";
import { workerPasswords } from "./services/password-worker.ts";
import { RegistrationLimit } from "./services/registration-limit.ts";
import { pruneThrottles } from "./services/throttle-retention.ts";
import { purgeExpiredSessions } from "./services/sessions.ts";
import { pruneRevokedApiKeys } from "./services/api-keys.ts";
import { createBilling } from "./services/billing/create-billing.ts";
import { parseAdSlots } from "../contract/ads.ts";
import { openStore } from "./store/mod.ts";
import { LetGoCollector } from "./store/let-go.ts";
import { createTrimmer } from "./malloc-trim.ts";
import { openMallocTrim } from "../codecs/libc.ts";
import { fullCollection } from "../codecs/collect-garbage.ts";
import {
  DEFAULT_RESULT_TTL_SECONDS,
  retentionPhrase,
  STATED_RETENTION,
  type StoreKind,
  storeVariantPath,
} from "../contract/storage.ts";
import { createCodecCompressor, noCompressor } from "./services/compression/codec-compressor.ts";
import { CompressionService } from "./services/compression/compression-service.ts";

const HOUR_MS = 3_600_000;

/** How long SIGTERM waits for running jobs before leaving them to the next start's recovery. */
const DRAIN_MS = 30_000;

const WEB_DIST = fileURLToPath(new URL("../web/dist", import.meta.url));

/** Builds web/dist when it is missing, or older than the page variants for this store kind (ADR 020). */
async function ensureWebBuilt(kind: StoreKind): Promise<void> {
  try {
    await Deno.stat(`${WEB_DIST}/index.html`);
    await Deno.stat(`${WEB_DIST}/${storeVariantPath("shell.html", kind)}`);
  } catch {
    log.info(`web/dist is missing or has no pages for the ${kind} store: building the web app first`);
    const { success } = await new Deno.Command(Deno.execPath(), { args: ["task", "build"] }).spawn().status;
    if (!success) throw new Error("The web build failed");
  }
}

async function main() {
  let env;
  try {
    env = parseEnv(Deno.env.toObject());
  } catch (err) {
    if (err instanceof EnvError) {
      log.error("The environment has bad values; not starting", { problems: err.message });
      Deno.exit(1);
    }
    throw err;
  }
  setLogLevel(env.LOG_LEVEL);
  // Opening contacts nothing yet (see check() below); its kind says which pages the build must hold.
  const collect = fullCollection();
  const FINALIZERS_MS = 300;
  // Free pages left in malloc's arenas go back to the system after jobs and collections (ADR 053).
  const mallocTrim = openMallocTrim();
  const trimmer = mallocTrim && createTrimmer({
    trim: async () => {
      const t = performance.now();
      await mallocTrim.trim();
      log.debug("Trimmed malloc's free pages", { ms: Math.round(performance.now() - t) });
    },
  });
  const letGo = collect && new LetGoCollector({
    collect: () => {
      const t = performance.now();
      collect();
      // The Blobs' bytes are freed by finalizers that run after the collection.
      trimmer?.soon(FINALIZERS_MS);
      log.debug("Collected what the memory store let go of", {
        ms: Math.round(performance.now() - t),
        heapMb: Math.round(Deno.memoryUsage().heapUsed / 2 ** 20),
      });
    },
  });
  const store = openStore(env.STORE_URL, env, { onLetGo: letGo ? (bytes) => letGo.letGo(bytes) : undefined });
  await ensureWebBuilt(store.kind);
  const database = await createDb({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN });
  const workers = env.WORKERS ?? navigator.hardwareConcurrency ?? 2;
  // WORKERS=0: this instance serves HTTP only; instances with workers run the jobs it admits.
  // A runtime without Web Workers (or CODEC_IN_PROCESS=true): the codec runs on this thread.
  const inProcess = env.CODEC_IN_PROCESS || typeof globalThis.Worker !== "function";
  const compressor = workers === 0 ? noCompressor() : createCodecCompressor({
    workers,
    jobTimeoutMs: env.JOB_TIMEOUT_MS,
    inProcess,
    onJobEnd: trimmer ? () => trimmer.soon() : undefined,
  });
  await store.check();
  log.info(`Byte store: ${store.description}`);
  if (env.RESULT_TTL_SECONDS !== DEFAULT_RESULT_TTL_SECONDS) {
    // The pages are prerendered at build time: they can follow the store kind, not this number.
    log.warn(
      `RESULT_TTL_SECONDS=${env.RESULT_TTL_SECONDS}: images are kept ${retentionPhrase(env.RESULT_TTL_SECONDS)}, ` +
        `but the public pages say ${STATED_RETENTION}; update contract/storage.ts`,
    );
  }
  // A file: database is this process's alone; libsql:// and http(s):// may be shared by instances.
  const sharedDatabase = !env.DATABASE_URL.startsWith("file:") && env.DATABASE_URL !== ":memory:";
  const compression = new CompressionService({
    db: database.db,
    compressor,
    store,
    maxStoreBytes: env.MAX_STORE_BYTES,
    sharedDatabase,
    // Instances on one database share its queue: any instance with workers runs any job (ADR 018).
    sharedQueue: sharedDatabase || workers === 0,
    leaseMs: env.JOB_LEASE_MS,
    pollMs: env.QUEUE_POLL_MS,
    log,
    resultTtlMs: env.RESULT_TTL_SECONDS * 1000,
  });
  if (workers === 0 && !sharedDatabase) {
    log.warn("WORKERS=0 on a database no other instance shares: uploads are recorded but no instance runs them");
  }
  // A plain line, the one the log does not write as JSON: tests/server/multi-instance.test.ts and
  // deploy-like.test.ts read how this instance runs jobs from it.
  console.log(
    workers === 0
      ? "WORKERS=0: serving HTTP only; instances with workers on this database run the jobs"
      : `Running jobs ${inProcess ? "in process, one at a time" : `on ${workers} worker(s)`}${
        sharedDatabase ? ", pulling from the shared queue" : ""
      }`,
  );
  const { resumed, failed } = await compression.recovery.recoverAfterRestart();
  if (resumed > 0) log.info(`Resumed ${resumed} job(s) left unfinished, whose originals the store still holds`);
  if (failed > 0) log.info(`Marked ${failed} job(s) left unfinished, whose originals are gone, as failed`);
  compression.startLeaseTimers();
  /** A sweep's failure, logged (the sweep runs again at its next tick). */
  const logged = (sweep: string) => (error: unknown) => log.error(`${sweep} failed`, { error });
  const sweeper = setInterval(() => void compression.retention.sweepExpired().catch(logged("expiry sweep")), 15_000);
  // Bytes no live job claims (a crash between storing and recording): rare, and a listing costs on S3.
  const straySweeper = setInterval(
    () => void compression.retention.sweepStrays().catch(logged("stray sweep")),
    HOUR_MS,
  );
  const sessionSweeper = setInterval(
    () => void purgeExpiredSessions(database.db).catch(logged("session sweep")),
    3_600_000,
  );
  // Revoked API keys' rows, 30 days after their revocation (ADR 028): one DELETE an hour.
  const revokedKeySweeper = setInterval(
    () => void pruneRevokedApiKeys(database.db).catch(logged("revoked key sweep")),
    HOUR_MS,
  );
  // Every instance sweeps: a DELETE on the indexed time column, cheap when another just did.
  const throttleSweeper = setInterval(() => void pruneThrottles(database.db).catch(logged("throttle sweep")), 60_000);

  const publicOrigin = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : null;
  const passwords = workerPasswords();
  // Made now, so that the first sign-in for an unknown user costs one hash, as every later one does.
  void passwords.dummyHash().catch(logged("password worker"));
  const app = createApp({
    db: database.db,
    throttle: new LoginThrottle(database.db),
    registrations: new RegistrationLimit(database.db, env.REGISTRATIONS_PER_HOUR, HOUR_MS),
    passwords,
    compression,
    restorer: compressor.restore ? { restore: (jxl) => compressor.restore!(jxl) } : undefined,
    billing: createBilling(env),
    adsense: env.ADSENSE_CLIENT ? { client: env.ADSENSE_CLIENT, slots: parseAdSlots(env.ADSENSE_SLOTS) } : undefined,
    webDist: WEB_DIST,
    storeKind: store.kind,
    trustedOrigins: publicOrigin ? [publicOrigin] : [],
    secureCookies: publicOrigin?.startsWith("https:") ?? false,
    logRequests: env.LOG_REQUESTS,
    log,
  });

  const server = Deno.serve({
    port: env.PORT,
    hostname: env.HOST,
    onListen: ({ hostname, port }) => log.info(`Listening on http://${hostname}:${port}`),
  }, app.fetch);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: draining running jobs, then shutting down`);
    clearInterval(sweeper);
    clearInterval(straySweeper);
    clearInterval(sessionSweeper);
    clearInterval(revokedKeySweeper);
    clearInterval(throttleSweeper);
    await compression.drain(DRAIN_MS);
    await server.shutdown();
    await compressor.close();
    passwords.close();
    await store.close();
    letGo?.close();
    trimmer?.close();
    database.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGTERM", () => void stop("SIGTERM"));
  Deno.addSignalListener("SIGINT", () => void stop("SIGINT"));
}

await main();
