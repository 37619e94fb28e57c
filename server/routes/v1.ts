import { type Context, Hono } from "hono";
import type { AppEnv } from "../app-env.ts";
import { formatChoiceHeader, V1, V1_HEADERS } from "../../contract/api-keys.ts";
import type { Job } from "../../contract/jobs.ts";
import { ApiError } from "../http-error.ts";
import { apiKeyAuth } from "../middleware/api-key-auth.ts";
import type { TokenBucketOptions } from "../middleware/token-buckets.ts";
import type { KeyLookupLimits } from "../middleware/key-lookup-budget.ts";
import { currentUser } from "../middleware/session.ts";
import { jobFailure, parseV1Query, queryParams } from "../services/developer-api.ts";
import { openApiDocument } from "../services/openapi.ts";
import { fileResponse } from "./jobs.ts";
import { readImageBody } from "./read-image-body.ts";
import { restore } from "./restore.ts";

/** The headers a finished job's answer carries (contract V1_HEADERS). */
function jobHeaders(job: Job, used: number): Record<string, string> {
  const headers: Record<string, string> = {
    [V1_HEADERS.jobId]: job.id,
    [V1_HEADERS.count]: String(used),
    [V1_HEADERS.originalSize]: String(job.originalSize),
  };
  if (job.width !== null) headers[V1_HEADERS.width] = String(job.width);
  if (job.height !== null) headers[V1_HEADERS.height] = String(job.height);
  if (job.compressedSize !== null) headers[V1_HEADERS.compressedSize] = String(job.compressedSize);
  if (job.formatChoice) headers[V1_HEADERS.formatChoice] = formatChoiceHeader(job.formatChoice);
  // A fixed-quality job's score is measured after it completes: the answer does not wait for it.
  if (job.scores && !job.scorePending) {
    headers[V1_HEADERS.score] = String(Math.round(job.scores.ssimulacra2 * 100) / 100);
  }
  return headers;
}

const withHeaders = (res: Response, headers: Record<string, string>) => {
  for (const [name, value] of Object.entries(headers)) res.headers.set(name, value);
  return res;
};

/**
 * POST /api/v1/compress: one image in, its result out (ADR 025). Settings from the query string,
 * admitted exactly as an upload of one file (limits, quota, priority, retention: the account's),
 * then either 202 `{ id }` (`async=true`) or, once the job ends, its bytes with V1_HEADERS. The
 * job runs on whatever the client does: a client that leaves finds its result at /jobs/:id.
 */
async function compress(c: Context<AppEnv>): Promise<Response> {
  const { settings, async } = parseV1Query(queryParams(new URL(c.req.url).search));
  const user = currentUser(c);
  const { admission, queries, downloads } = c.var.deps.compression;
  const intake = await admission.openApiUpload(user, settings);
  let job: Job;
  try {
    const file = await readImageBody(c.req.raw, intake);
    job = (await admission.admit(user, { files: [file], settings }, intake, c.var.apiKey!.id)).jobs[0]!;
  } finally {
    intake.release();
  }
  if (async) {
    const { used } = await queries.usage(user);
    return c.json({ id: job.id }, 202, {
      Location: V1.job(job.id),
      [V1_HEADERS.jobId]: job.id,
      [V1_HEADERS.count]: String(used),
    });
  }
  const end = await queries.awaitEnd(user.id, job.id, c.req.raw.signal);
  if (!end) {
    // Deleted meanwhile (through the web app or DELETE), or the client left (it hears nothing).
    throw new ApiError(410, "The job was deleted before it finished", { [V1_HEADERS.jobId]: job.id });
  }
  const ended = end.job;
  // Its failure answers by its code, never by its message (app.onError maps the code to a status).
  if (ended.status === "error") throw jobFailure(ended, end.errorCode);
  const file = await downloads.download(user.id, job.id);
  const { used } = await queries.usage(user);
  return withHeaders(fileResponse(file, "attachment"), jobHeaders(ended, used));
}

/**
 * `/api/v1`, mounted beside `/api` (app.ts) so neither the session nor the CSRF check runs here:
 * a request is its key's (api-key-auth.ts), with its own rate limit per key and budgets for failed
 * key lookups. The OpenAPI document is public. Errors are JSON `{ error }`, as everywhere.
 */
export function v1Routes(rateLimit: TokenBucketOptions, lookupLimits?: KeyLookupLimits) {
  const auth = apiKeyAuth(rateLimit, lookupLimits);
  return new Hono<AppEnv>()
    .get("/openapi.json", (c) => c.json(openApiDocument()))
    .use("/compress", auth)
    .use("/jobs/*", auth)
    .use("/restore", auth)
    .post("/compress", compress)
    .post("/restore", restore)
    .get(
      "/jobs/:id",
      async (c) => c.json(await c.var.deps.compression.queries.job(currentUser(c).id, c.req.param("id"))),
    )
    .get("/jobs/:id/result", async (c) => {
      const id = c.req.param("id");
      const file = await c.var.deps.compression.downloads.download(currentUser(c).id, id);
      return withHeaders(fileResponse(file, "attachment"), { [V1_HEADERS.jobId]: id });
    })
    .all("*", (c) => c.json({ error: `No API route for ${c.req.method} ${c.req.path}` }, 404));
}
