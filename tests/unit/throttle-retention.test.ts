import assert from "node:assert/strict";
import { count } from "drizzle-orm";
import { createDb } from "../../db/client.ts";
import { knownAddresses, throttleEvents } from "../../db/schema.ts";
import { RegistrationLimit } from "../../server/services/registration-limit.ts";
import { DEFAULT_THROTTLE, LoginThrottle } from "../../server/services/login-throttle.ts";
import { pruneThrottles } from "../../server/services/throttle-retention.ts";

const HOUR = 3_600_000;

Deno.test("the throttle tables store hashes, not addresses or usernames", async () => {
  const database = await createDb({ url: ":memory:" });
  const t = new LoginThrottle(database.db);
  await t.recordFailure("alice", "203.0.113.9");
  await t.recordSuccess("alice", "203.0.113.9");
  await new RegistrationLimit(database.db, 10).take("203.0.113.9");
  const stored = JSON.stringify([
    await database.db.select().from(throttleEvents),
    await database.db.select().from(knownAddresses),
  ]);
  assert.doesNotMatch(stored, /203\.0\.113|alice/);
  assert.match(stored, /[0-9a-f]{64}/);
  database.close();
});

Deno.test("pruneThrottles deletes events past the longest window and known addresses past knownForMs", async () => {
  const database = await createDb({ url: ":memory:" });
  const { db } = database;
  let now = 0;
  const t = new LoginThrottle(db, DEFAULT_THROTTLE, () => now);
  const r = new RegistrationLimit(db, 10, HOUR, () => now);
  const rows = async () => (await db.select({ n: count() }).from(throttleEvents))[0]!.n;
  await t.recordSuccess("alice", "10.0.0.1");
  for (let i = 0; i < 1000; i++) await t.recordFailure(`spray${i}`, `198.51.100.${i % 250}`); // a spray of keys
  await r.take("203.0.113.1");
  assert.equal(await rows(), 3001);

  now = 30 * 60_000;
  await pruneThrottles(db, now);
  assert.equal(await rows(), 3001, "a sign-up still counts for the hour: nothing is older than that yet");
  now = HOUR;
  await pruneThrottles(db, now);
  assert.equal(await rows(), 0, "past the longest window every row goes");
  assert.equal((await db.select().from(knownAddresses)).length, 1, "the owner's address is still known");
  assert.equal(await t.retryAfter("alice", "10.0.0.1"), 0);

  now = DEFAULT_THROTTLE.knownForMs;
  await pruneThrottles(db, now);
  assert.equal((await db.select().from(knownAddresses)).length, 0);
  database.close();
});
