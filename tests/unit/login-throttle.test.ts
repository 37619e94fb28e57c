import assert from "node:assert/strict";
import { createDb } from "../../db/client.ts";
import { DEFAULT_THROTTLE, LoginThrottle, type ThrottleLimits } from "../../server/services/login-throttle.ts";

const limits = { ...DEFAULT_THROTTLE, perIp: 20 };
const MIN = 60_000;

/** A throttle on a fresh `:memory:` database with a clock the test moves. */
async function throttleAt(start = 0, given: ThrottleLimits = limits) {
  const database = await createDb({ url: ":memory:" });
  const clock = { now: start };
  const t = new LoginThrottle(database.db, given, () => clock.now);
  return { t, clock, db: database.db, [Symbol.dispose]: () => database.close() };
}

Deno.test("LoginThrottle makes one username at one address wait after 5 failures, doubling each time", async () => {
  using s = await throttleAt();
  const { t, clock } = s;
  for (let i = 0; i < 4; i++) await t.recordFailure("Alice", "1.1.1.1");
  assert.equal(await t.retryAfter("alice", "1.1.1.1"), 0);
  await t.recordFailure("alice", "1.1.1.1");
  assert.equal(await t.retryAfter("ALICE", "1.1.1.1"), 30);
  clock.now = 30_000;
  assert.equal(await t.retryAfter("alice", "1.1.1.1"), 0);
  await t.recordFailure("alice", "1.1.1.1");
  assert.equal(await t.retryAfter("alice", "1.1.1.1"), 60, "the sixth failure doubles the wait");
  clock.now += 60_000;
  await t.recordFailure("alice", "1.1.1.1");
  assert.equal(await t.retryAfter("alice", "1.1.1.1"), 120);
});

Deno.test("[regression] failures from another address never lock the owner out", async () => {
  using s = await throttleAt();
  const { t, clock } = s;
  await t.recordSuccess("alice", "10.0.0.1"); // the owner signed in from home once
  for (let i = 0; i < 200; i++) {
    clock.now += 1000;
    await t.recordFailure("alice", `198.51.100.${i % 50}`);
  }
  assert.equal(await t.retryAfter("alice", "10.0.0.1"), 0, "the owner's known address is not throttled");
  assert.equal((await t.begin("alice", "10.0.0.1")).retryAfter, 0, "and begin lets the owner in too");
  assert.ok(await t.retryAfter("alice", "198.51.100.7") > 0, "the attacker's addresses are");
  assert.ok((await t.begin("alice", "192.0.2.1")).retryAfter > 0, "and any new one");
});

Deno.test("LoginThrottle stops exempting a known address after knownForMs", async () => {
  using s = await throttleAt();
  const { t, clock } = s;
  await t.recordSuccess("alice", "10.0.0.1");
  clock.now = limits.knownForMs;
  for (let i = 0; i < 100; i++) await t.recordFailure("alice", `203.0.113.${i}`);
  assert.ok(await t.retryAfter("alice", "10.0.0.1") > 0);
  assert.ok((await t.begin("alice", "10.0.0.1")).retryAfter > 0);
});

Deno.test("LoginThrottle caps a distributed guess at one username from unknown addresses", async () => {
  using s = await throttleAt();
  const { t, clock } = s;
  for (let i = 0; i < 100; i++) await t.recordFailure("alice", `203.0.113.${i}`); // each address only once
  assert.ok(
    await t.retryAfter("alice", "192.0.2.200") > 0,
    "a new address is refused while the username is under attack",
  );
  clock.now = 15 * MIN + 1;
  assert.equal(await t.retryAfter("alice", "192.0.2.200"), 0, "and allowed again once the window passes");
});

Deno.test("LoginThrottle blocks an IP after 20 failures across usernames", async () => {
  using s = await throttleAt();
  const { t } = s;
  for (let i = 0; i < 20; i++) await t.recordFailure(`user${i}`, "1.1.1.1");
  assert.ok(await t.retryAfter("someone-new", "1.1.1.1") > 0);
  assert.equal(await t.retryAfter("someone-new", "9.9.9.9"), 0);
});

Deno.test("LoginThrottle forgets a pair's failures after a successful login", async () => {
  using s = await throttleAt();
  const { t } = s;
  for (let i = 0; i < 4; i++) await t.recordFailure("alice", "1.1.1.1");
  await t.recordSuccess("alice", "1.1.1.1");
  await t.recordFailure("alice", "1.1.1.1");
  assert.equal(await t.retryAfter("alice", "1.1.1.1"), 0);
});

Deno.test("LoginThrottle.begin admits exactly when retryAfter is 0, and counts what it admits as a failure", async () => {
  using s = await throttleAt();
  const { t, clock } = s;
  const wait = async () => (await t.begin("alice", "1.1.1.1")).retryAfter;
  for (let i = 0; i < 5; i++) assert.equal(await wait(), 0, `attempt ${i + 1}`);
  assert.equal(await t.retryAfter("alice", "1.1.1.1"), 30, "five admitted attempts are five failures");
  assert.equal(await wait(), 30, "the sixth is refused with the same wait, and not counted");
  clock.now = 29_999;
  assert.equal(await wait(), 1);
  clock.now = 30_000;
  assert.equal(await wait(), 0, "the wait is over");
  assert.equal(await wait(), 60, "and the next doubles it");
});

Deno.test("LoginThrottle.recordSuccess takes back the attempt's own count from the address and username", async () => {
  using s = await throttleAt(0, { ...limits, perIp: 3 });
  const { t } = s;
  for (let i = 0; i < 5; i++) {
    const attempt = await t.begin(`user${i}`, "1.1.1.1");
    assert.equal(attempt.retryAfter, 0, `sign-in ${i + 1}`);
    await t.recordSuccess(`user${i}`, "1.1.1.1", attempt);
  }
  for (let i = 0; i < 3; i++) assert.equal((await t.begin("mallory", "1.1.1.1")).retryAfter, 0);
  assert.ok((await t.begin("someone", "1.1.1.1")).retryAfter > 0, "three failures reach the address's cap");
});

Deno.test("[regression] concurrent attempts cannot pass a cap together: begin checks and counts in one statement", async () => {
  using s = await throttleAt();
  const { t } = s;
  const results = await Promise.all(Array.from({ length: 40 }, (_, i) => t.begin(`user${i}`, "1.1.1.1")));
  assert.equal(results.filter((r) => r.retryAfter === 0).length, 20, "exactly perIp admitted");
});

Deno.test("[regression] an instance whose clock runs behind another's never asks for more than the longest wait", async () => {
  using s = await throttleAt(10 * MIN);
  const { t, clock, db } = s;
  const behind = new LoginThrottle(db, limits, () => clock.now - 5_000);
  for (let i = 0; i < 5; i++) await t.recordFailure("alice", "1.1.1.1");
  assert.equal(await behind.retryAfter("alice", "1.1.1.1"), 30, "the pair's first wait, not 35 s");
  for (let i = 0; i < 20; i++) await t.recordFailure(`user${i}`, "2.2.2.2");
  assert.equal(await behind.retryAfter("someone-new", "2.2.2.2"), limits.windowMs / 1000, "the window, not more");
});
