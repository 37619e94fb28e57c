import assert from "node:assert/strict";
import { DEFAULT_THROTTLE, LoginThrottle } from "../../server/services/login-throttle.ts";

const limits = { ...DEFAULT_THROTTLE, perIp: 20 };
const MIN = 60_000;

Deno.test("LoginThrottle makes one username at one address wait after 5 failures, doubling each time", () => {
  let now = 0;
  const t = new LoginThrottle(limits, () => now);
  for (let i = 0; i < 4; i++) t.recordFailure("Alice", "1.1.1.1");
  assert.equal(t.retryAfter("alice", "1.1.1.1"), 0);
  t.recordFailure("alice", "1.1.1.1");
  assert.equal(t.retryAfter("ALICE", "1.1.1.1"), 30);
  now = 30_000;
  assert.equal(t.retryAfter("alice", "1.1.1.1"), 0);
  t.recordFailure("alice", "1.1.1.1");
  assert.equal(t.retryAfter("alice", "1.1.1.1"), 60, "the sixth failure doubles the wait");
  now += 60_000;
  t.recordFailure("alice", "1.1.1.1");
  assert.equal(t.retryAfter("alice", "1.1.1.1"), 120);
});

Deno.test("[regression] failures from another address never lock the owner out", () => {
  let now = 0;
  const t = new LoginThrottle(limits, () => now);
  t.recordSuccess("alice", "10.0.0.1"); // the owner signed in from home once
  for (let i = 0; i < 200; i++) {
    now += 1000;
    t.recordFailure("alice", `198.51.100.${i % 50}`);
  }
  assert.equal(t.retryAfter("alice", "10.0.0.1"), 0, "the owner's known address is not throttled");
  assert.ok(t.retryAfter("alice", "198.51.100.7") > 0, "the attacker's addresses are");
});

Deno.test("LoginThrottle caps a distributed guess at one username from unknown addresses", () => {
  let now = 0;
  const t = new LoginThrottle(limits, () => now);
  for (let i = 0; i < 100; i++) t.recordFailure("alice", `203.0.113.${i}`); // each address only once
  assert.ok(t.retryAfter("alice", "192.0.2.200") > 0, "a new address is refused while the username is under attack");
  now = 15 * MIN + 1;
  assert.equal(t.retryAfter("alice", "192.0.2.200"), 0, "and allowed again once the window passes");
});

Deno.test("LoginThrottle blocks an IP after 20 failures across usernames", () => {
  const t = new LoginThrottle(limits, () => 0);
  for (let i = 0; i < 20; i++) t.recordFailure(`user${i}`, "1.1.1.1");
  assert.ok(t.retryAfter("someone-new", "1.1.1.1") > 0);
  assert.equal(t.retryAfter("someone-new", "9.9.9.9"), 0);
});

Deno.test("LoginThrottle forgets a pair's failures after a successful login", () => {
  const t = new LoginThrottle(limits, () => 0);
  for (let i = 0; i < 4; i++) t.recordFailure("alice", "1.1.1.1");
  t.recordSuccess("alice", "1.1.1.1");
  t.recordFailure("alice", "1.1.1.1");
  assert.equal(t.retryAfter("alice", "1.1.1.1"), 0);
});
