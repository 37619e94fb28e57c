/**
 * ADR 019 on a real libSQL server (sqld), as instances share it: two clients racing sign-in
 * attempts and sign-ups pass no limit between them (the conditional INSERTs over HTTP).
 */
import assert from "node:assert/strict";
import { createDb } from "../../db/client.ts";
import { DEFAULT_THROTTLE, LoginThrottle } from "../../server/services/login-throttle.ts";
import { RegistrationLimit } from "../../server/services/registration-limit.ts";
import { pruneThrottles } from "../../server/services/throttle-retention.ts";
import { ensureSqld, startSqld } from "../setup/sqld.ts";

const unavailable = await ensureSqld().then(() => null, (err: Error) => err);
const ignore = unavailable !== null && Deno.env.get("CI") !== "true";
if (ignore) console.warn(`Skipping the sqld throttle test: ${unavailable.message}`);

Deno.test({
  name: "two instances on one sqld: sign-in caps, the pair's wait and sign-ups hold exactly across them",
  ignore,
  async fn() {
    if (unavailable) throw unavailable;
    const sqld = await startSqld();
    const a = await createDb({ url: sqld.url });
    const b = await createDb({ url: sqld.url });
    try {
      const [ta, tb] = [new LoginThrottle(a.db), new LoginThrottle(b.db)];
      const attempts = await Promise.all(
        Array.from({ length: 60 }, (_, i) => (i % 2 ? ta : tb).begin(`user${i}`, "198.51.100.1")),
      );
      assert.equal(attempts.filter((r) => r.retryAfter === 0).length, DEFAULT_THROTTLE.perIp);

      for (let i = 0; i < DEFAULT_THROTTLE.perPair; i++) await ta.begin("alice", "198.51.100.2");
      assert.equal((await tb.begin("alice", "198.51.100.2")).retryAfter, 30, "B sees A's failures");
      const ok = await tb.begin("alice", "192.0.2.1");
      await tb.recordSuccess("alice", "192.0.2.1", ok);
      assert.equal(await ta.retryAfter("alice", "192.0.2.1"), 0);

      const [ra, rb] = [new RegistrationLimit(a.db, 10), new RegistrationLimit(b.db, 10)];
      const waits = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? ra : rb).take("203.0.113.1")));
      assert.equal(waits.filter((w) => w === 0).length, 10);
      assert.ok(waits.filter((w) => w > 0).every((w) => w <= 3600));

      await pruneThrottles(a.db, Date.now() + 2 * 3_600_000);
      assert.equal(await tb.retryAfter("someone", "198.51.100.1"), 0, "pruned past the window");
    } finally {
      a.close();
      b.close();
      await sqld.stop();
    }
  },
});
