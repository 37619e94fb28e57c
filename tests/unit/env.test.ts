import assert from "node:assert/strict";
import { EnvError, parseEnv } from "../../server/env.ts";

Deno.test("parseEnv fills the embedded defaults", () => {
  const env = parseEnv({});
  assert.equal(env.PORT, 8000);
  assert.equal(env.HOST, "0.0.0.0");
  assert.equal(env.DATABASE_URL, "file:data/app.db");
  assert.equal(env.JOB_TIMEOUT_MS, 60_000);
  assert.equal(env.RESULT_TTL_SECONDS, 3600);
  assert.equal(env.MAX_STORE_BYTES, 1024 ** 3);
  assert.equal(env.STRIPE_SECRET_KEY, undefined);
});

Deno.test("parseEnv treats empty values as unset", () => {
  assert.equal(parseEnv({ PORT: "" }).PORT, 8000);
});

Deno.test("parseEnv lists every bad variable at once", () => {
  assert.throws(
    () => parseEnv({ PORT: "eighty", DATABASE_URL: "postgres://x", WORKERS: "-1", PUBLIC_URL: "nope" }),
    (err: unknown) => {
      assert.ok(err instanceof EnvError);
      for (const key of ["PORT", "DATABASE_URL", "WORKERS", "PUBLIC_URL"]) assert.match(err.message, new RegExp(key));
      return true;
    },
  );
});

Deno.test("parseEnv refuses a partial Stripe configuration", () => {
  assert.throws(() => parseEnv({ STRIPE_SECRET_KEY: "sk_test_x" }), /set all three or none/);
  const env = parseEnv({
    STRIPE_SECRET_KEY: "sk_test_x",
    STRIPE_WEBHOOK_SECRET: "whsec_x",
    STRIPE_PRICE_ID: "price_x",
  });
  assert.equal(env.STRIPE_PRICE_ID, "price_x");
});

Deno.test("[regression] billing fails closed: an https PUBLIC_URL without Stripe keys refuses to start, naming them", () => {
  assert.throws(
    () => parseEnv({ PUBLIC_URL: "https://squeeze.example" }),
    (err: unknown) => {
      assert.ok(err instanceof EnvError);
      assert.match(
        err.message,
        /STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID: required when PUBLIC_URL is https/,
      );
      assert.match(err.message, /LOCAL_TEST_BILLING=true/);
      return true;
    },
  );
  assert.equal(
    parseEnv({ PUBLIC_URL: "https://staging.example", LOCAL_TEST_BILLING: "true" }).LOCAL_TEST_BILLING,
    true,
  );
  assert.equal(parseEnv({ PUBLIC_URL: "http://localhost:8000" }).LOCAL_TEST_BILLING, false, "plain http: a local run");
  assert.equal(parseEnv({}).LOCAL_TEST_BILLING, false, "the embedded defaults still run test billing");
  assert.throws(
    () =>
      parseEnv({
        LOCAL_TEST_BILLING: "true",
        STRIPE_SECRET_KEY: "sk_test_x",
        STRIPE_WEBHOOK_SECRET: "whsec_x",
        STRIPE_PRICE_ID: "price_x",
      }),
    /LOCAL_TEST_BILLING: cannot be true while Stripe keys are set/,
  );
});

Deno.test("WORKERS=0 (HTTP only), JOB_LEASE_MS and QUEUE_POLL_MS parse; defaults hold", () => {
  const env = parseEnv({ WORKERS: "0", JOB_LEASE_MS: "4000", QUEUE_POLL_MS: "250" });
  assert.equal(env.WORKERS, 0);
  assert.equal(env.JOB_LEASE_MS, 4000);
  assert.equal(env.QUEUE_POLL_MS, 250);
  const defaults = parseEnv({});
  assert.equal(defaults.JOB_LEASE_MS, 30_000);
  assert.equal(defaults.QUEUE_POLL_MS, 300);
  assert.throws(() => parseEnv({ JOB_LEASE_MS: "10" }), /JOB_LEASE_MS/);
});
