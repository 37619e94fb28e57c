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
    () => parseEnv({ PORT: "eighty", DATABASE_URL: "postgres://x", WORKERS: "0", PUBLIC_URL: "nope" }),
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
