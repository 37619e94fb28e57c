import assert from "node:assert/strict";
import { LoginThrottle } from "../../server/services/login-throttle.ts";

const limits = { windowMs: 15 * 60_000, perUsername: 5, perIp: 20 };

Deno.test("LoginThrottle blocks a username after 5 failures and reopens when the window passes", () => {
  let now = 0;
  const t = new LoginThrottle(limits, () => now);
  for (let i = 0; i < 4; i++) t.recordFailure("Alice", "1.1.1.1");
  assert.equal(t.retryAfter("alice", "2.2.2.2"), 0);
  t.recordFailure("alice", "1.1.1.1");
  assert.equal(t.retryAfter("ALICE", "2.2.2.2"), 900);
  now = 10 * 60_000;
  assert.equal(t.retryAfter("alice", "2.2.2.2"), 300);
  now = 15 * 60_000 + 1;
  assert.equal(t.retryAfter("alice", "2.2.2.2"), 0);
});

Deno.test("LoginThrottle blocks an IP after 20 failures across usernames", () => {
  const t = new LoginThrottle(limits, () => 0);
  for (let i = 0; i < 20; i++) t.recordFailure(`user${i}`, "1.1.1.1");
  assert.ok(t.retryAfter("someone-new", "1.1.1.1") > 0);
  assert.equal(t.retryAfter("someone-new", "9.9.9.9"), 0);
});

Deno.test("LoginThrottle forgets a username's failures after a successful login", () => {
  const t = new LoginThrottle(limits, () => 0);
  for (let i = 0; i < 4; i++) t.recordFailure("alice", "1.1.1.1");
  t.recordSuccess("alice");
  t.recordFailure("alice", "1.1.1.1");
  assert.equal(t.retryAfter("alice", "2.2.2.2"), 0);
});
