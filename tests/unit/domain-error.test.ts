/** Domain errors (server/domain-error.ts): codes, not statuses, in the services; one mapping in http-error.ts. */
import assert from "node:assert/strict";
import { V1_HEADERS } from "../../contract/api-keys.ts";
import type { Job } from "../../contract/jobs.ts";
import { CODEC_ERROR_CODES, CodecError, HTTP_STATUS_BY_CODE } from "../../codecs/errors.ts";
import { DOMAIN_ERROR_CODES, DomainError, jobErrorCode } from "../../server/domain-error.ts";
import { ApiError, httpErrorOf, STATUS_BY_CODE } from "../../server/http-error.ts";
import { jobFailure } from "../../server/services/developer-api.ts";

const failed = { id: "j1", errorMessage: "Cannot decode the image: its scan data is corrupt" } as Job;

Deno.test("every domain code has a status; a codec's code keeps the codec's suggestion but for aborted", () => {
  for (const code of DOMAIN_ERROR_CODES) assert.ok(STATUS_BY_CODE[code] >= 400, code);
  for (const code of CODEC_ERROR_CODES) {
    if (code !== "aborted") assert.equal(STATUS_BY_CODE[code], HTTP_STATUS_BY_CODE[code], code);
  }
  assert.equal(STATUS_BY_CODE.aborted, 503, "499 is no status to answer with");
});

Deno.test("httpErrorOf: a domain error's status by its code, Retry-After from its seconds, its own headers kept", () => {
  const quota = new DomainError("quota_exceeded", "Daily limit reached", { retryAfterSeconds: 42 });
  assert.deepEqual(httpErrorOf(quota), {
    status: 429,
    message: "Daily limit reached",
    headers: { "Retry-After": "42" },
  });
  const key = new DomainError("unauthenticated", "Invalid API key", { headers: { "WWW-Authenticate": "Bearer" } });
  assert.deepEqual(httpErrorOf(key)?.headers, { "WWW-Authenticate": "Bearer" });
  assert.equal(httpErrorOf(new CodecError("corrupt_image", "bad"))?.status, 422);
  assert.equal(httpErrorOf(new ApiError(408, "slow"))?.status, 408);
  assert.equal(httpErrorOf(new Error("boom")), null, "anything else is unexpected");
  const cause = new Error("stripe down");
  assert.equal(new DomainError("upstream_failed", "later", { cause }).cause, cause);
});

Deno.test("jobFailure answers by the stored code; a row without one (before migration 0012) answers 422", () => {
  assert.equal(httpErrorOf(jobFailure(failed, "corrupt_image"))?.status, 422);
  assert.equal(httpErrorOf(jobFailure(failed, "timeout"))?.status, 504);
  assert.equal(httpErrorOf(jobFailure(failed, "cancelled"))?.status, 409);
  assert.equal(httpErrorOf(jobFailure(failed, "unexpected"))?.status, 500);
  const legacy = httpErrorOf(jobFailure(failed, jobErrorCode(null)));
  assert.deepEqual(legacy, { status: 422, message: failed.errorMessage, headers: { [V1_HEADERS.jobId]: "j1" } });
  assert.equal(jobErrorCode("no_such_code"), null);
  const restarted = httpErrorOf(jobFailure(failed, "restarted"));
  assert.equal(restarted?.status, 503);
  assert.deepEqual(restarted?.headers, { [V1_HEADERS.jobId]: "j1", "Retry-After": "60" });
});
