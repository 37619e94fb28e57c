/** Unknown API keys cost nothing (issue 29, ADR 028): failed lookups are budgeted in memory, per address and per instance. */
import assert from "node:assert/strict";
import { API_KEY_PREFIX, V1 } from "../../contract/api-keys.ts";
import { clientNetwork, KEY_LOOKUP_LIMITS, type KeyLookupLimits } from "../../server/middleware/key-lookup-budget.ts";
import { createTestApp, signUp, type TestApp } from "../setup/app-harness.ts";
import { bearer, createKey } from "../setup/api-keys.ts";

const UNLIMITED = { burst: 1e9, perSecond: 1e9 };
const NEVER = 1e-9; // a bucket that does not refill within a test

function randomKey(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  return API_KEY_PREFIX + Array.from(crypto.getRandomValues(new Uint8Array(52)), (b) => alphabet[b & 31]).join("");
}

/** An app whose database reads of api_keys are counted: each is one key lookup. */
async function setup(limits: Partial<KeyLookupLimits> = {}) {
  const t = await createTestApp({
    apiRateLimit: UNLIMITED,
    keyLookupLimits: { ...KEY_LOOKUP_LIMITS, ...limits },
  });
  const db = t.deps.db;
  const select = db.select.bind(db);
  let lookups = 0;
  db.select = ((...args: Parameters<typeof select>) => {
    lookups++;
    return select(...args);
  }) as typeof select;
  return { t, lookups: () => lookups };
}

/** GET /api/v1/jobs/none with `key`, as Deno.serve would hand it from `address`. */
async function ask(t: TestApp, key: string, address: string) {
  const res = await t.request(V1.job("none"), { headers: bearer(key) }, { remoteAddr: { hostname: address } });
  return { status: res.status, retryAfter: res.headers.get("Retry-After"), error: (await res.json()).error as string };
}

Deno.test("random keys from one address: 10 are looked up (401), the rest refused from memory with 429 + Retry-After", async () => {
  const { t, lookups } = await setup();
  const before = lookups();
  const answers = [];
  for (let i = 0; i < 30; i++) answers.push(await ask(t, randomKey(), "203.0.113.7"));
  assert.deepEqual(answers.slice(0, 10).map((a) => a.status), Array(10).fill(401));
  assert.match(answers[0]!.error, /^Invalid API key: no such key$/);
  assert.deepEqual(answers.slice(10).map((a) => a.status), Array(20).fill(429));
  assert.equal(
    answers[10]!.error,
    "Too many requests with unknown or revoked API keys from your address: at most 10, then one every 10 s",
  );
  assert.ok(Number(answers[10]!.retryAfter) >= 1 && Number(answers[10]!.retryAfter) <= 10, answers[10]!.retryAfter!);
  assert.equal(lookups() - before, 10, "one database read per lookup, none for the refused");
  await t.close();
});

Deno.test("during a flood from one address, keys that work keep working: one seen before from that address, a new one from elsewhere", async () => {
  const { t } = await setup();
  const { cookie } = await signUp(t);
  const known = (await createKey(t, cookie, "known")).key;
  const fresh = (await createKey(t, cookie, "fresh")).key;
  assert.equal((await ask(t, known, "203.0.113.7")).status, 404, "authenticates before the flood");
  for (let i = 0; i < 40; i++) await ask(t, randomKey(), "203.0.113.7");
  assert.equal((await ask(t, randomKey(), "203.0.113.7")).status, 429, "the address is over its budget");
  assert.equal((await ask(t, known, "203.0.113.7")).status, 404, "a key seen to work is outside the budget");
  assert.equal((await ask(t, fresh, "198.51.100.20")).status, 404, "another address has its own budget");
  assert.equal((await ask(t, randomKey(), "198.51.100.20")).status, 401);
  await t.close();
});

Deno.test("50 random keys in parallel from one address: exactly 10 lookups (the budget is taken before the query)", async () => {
  const { t, lookups } = await setup();
  const before = lookups();
  const answers = await Promise.all(Array.from({ length: 50 }, () => ask(t, randomKey(), "203.0.113.7")));
  assert.equal(answers.filter((a) => a.status === 401).length, 10);
  assert.equal(answers.filter((a) => a.status === 429).length, 40);
  assert.equal(lookups() - before, 10);
  await t.close();
});

Deno.test("parallel requests with one key new to this instance share its lookup's token: 20 at once all served, one unknown key's 20 cost one query", async () => {
  const { t, lookups } = await setup({ perAddress: { burst: 1, perSecond: NEVER } });
  const { cookie } = await signUp(t);
  const { key } = await createKey(t, cookie);
  const served = await Promise.all(Array.from({ length: 20 }, () => ask(t, key, "203.0.113.7")));
  assert.deepEqual(served.map((a) => a.status), Array(20).fill(404));
  const unknown = randomKey();
  const before = lookups();
  const refused = await Promise.all(Array.from({ length: 20 }, () => ask(t, unknown, "203.0.113.7")));
  assert.deepEqual(refused.map((a) => a.status), Array(20).fill(401));
  assert.equal(lookups() - before, 1);
  assert.equal((await ask(t, randomKey(), "203.0.113.7")).status, 429, "one token was spent, by the unknown key");
  await t.close();
});

Deno.test("a key that failed is answered from memory: a revoked key's retries cost no query and no budget", async () => {
  const { t, lookups } = await setup({ perAddress: { burst: 2, perSecond: NEVER } });
  const { cookie } = await signUp(t);
  const { id, key } = await createKey(t, cookie);
  assert.equal((await ask(t, key, "203.0.113.7")).status, 404);
  await t.request(`/api/keys/${id}`, { method: "DELETE", headers: { Cookie: cookie } });
  const before = lookups();
  for (let i = 0; i < 20; i++) {
    const answer = await ask(t, key, "203.0.113.7");
    assert.equal(answer.status, 401);
    assert.match(answer.error, /revoked/);
  }
  assert.equal(lookups() - before, 1, "looked up once, when it was first refused");
  const unknown = randomKey();
  assert.equal((await ask(t, unknown, "203.0.113.7")).status, 401, "the address's budget is unspent by the retries");
  assert.equal((await ask(t, unknown, "203.0.113.7")).status, 401, "and the unknown key's answer is remembered too");
  assert.equal((await ask(t, randomKey(), "203.0.113.7")).status, 401);
  assert.equal((await ask(t, randomKey(), "203.0.113.7")).status, 429, "2 unknown keys: the budget is spent");
  await t.close();
});

Deno.test("lookups that succeed give their token back: an address may bring any number of keys that work", async () => {
  const { t } = await setup({ perAddress: { burst: 2, perSecond: NEVER } });
  const keys = [];
  for (const name of ["alice", "bob"]) {
    const { cookie } = await signUp(t, name);
    for (let i = 0; i < 4; i++) keys.push((await createKey(t, cookie, `k${i}`)).key);
  }
  for (const key of keys) assert.equal((await ask(t, key, "203.0.113.7")).status, 404);
  assert.equal((await ask(t, randomKey(), "203.0.113.7")).status, 401, "the budget is whole");
  await t.close();
});

Deno.test("a flood spread over many addresses meets the instance's budget: 503 + Retry-After; known keys still work", async () => {
  const { t, lookups } = await setup({ global: { burst: 5, perSecond: NEVER } });
  const { cookie } = await signUp(t);
  const known = (await createKey(t, cookie, "known")).key;
  const fresh = (await createKey(t, cookie, "fresh")).key;
  assert.equal((await ask(t, known, "192.0.2.1")).status, 404);
  const before = lookups();
  const answers = [];
  for (let i = 0; i < 40; i++) answers.push(await ask(t, randomKey(), `10.0.${i >> 8}.${i & 255}`));
  assert.deepEqual(answers.slice(0, 5).map((a) => a.status), Array(5).fill(401));
  assert.deepEqual(answers.slice(5).map((a) => a.status), Array(35).fill(503));
  assert.match(
    answers[5]!.error,
    /^The server is busy refusing unknown API keys \(it checks at most .* a second\); please try again in a moment$/,
  );
  assert.ok(Number(answers[5]!.retryAfter) >= 1);
  assert.equal(lookups() - before, 5);
  assert.equal((await ask(t, known, "192.0.2.1")).status, 404, "a key seen to work is outside the budget");
  // The price: a key this instance has not seen work yet waits with the flood (the CLI retries 503).
  assert.equal((await ask(t, fresh, "192.0.2.1")).status, 503);
  // A refusal by the instance's budget does not spend the address's.
  assert.equal((await ask(t, randomKey(), "10.0.0.39")).status, 503);
  await t.close();
});

Deno.test("the default budgets are the ones the README and ADR 028 state", () => {
  assert.deepEqual(KEY_LOOKUP_LIMITS.perAddress, { burst: 10, perSecond: 0.1 });
  assert.deepEqual(KEY_LOOKUP_LIMITS.global, { burst: 100, perSecond: 20 });
});

Deno.test("an address's budget is shared by its IPv6 /64 (one host often holds all of it); IPv4-mapped is IPv4", () => {
  assert.equal(clientNetwork("203.0.113.7"), "203.0.113.7");
  assert.equal(clientNetwork("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
  assert.equal(clientNetwork("2001:db8:1:2:ffff:eeee:dddd:cccc"), "2001:db8:1:2::/64");
  assert.equal(clientNetwork("2001:0db8:0001:0002::"), "2001:db8:1:2::/64");
  assert.equal(clientNetwork("2001:db8::1"), "2001:db8:0:0::/64");
  assert.equal(clientNetwork("::1"), "0:0:0:0::/64");
  assert.equal(clientNetwork("fe80::1%eth0"), "fe80:0:0:0::/64");
  assert.equal(clientNetwork("::ffff:198.51.100.4"), "198.51.100.4");
});

Deno.test("two addresses of one IPv6 /64 share a budget", async () => {
  const { t } = await setup({ perAddress: { burst: 2, perSecond: NEVER } });
  assert.equal((await ask(t, randomKey(), "2001:db8:1:2::a")).status, 401);
  assert.equal((await ask(t, randomKey(), "2001:db8:1:2::b")).status, 401);
  assert.equal((await ask(t, randomKey(), "2001:db8:1:2::c")).status, 429);
  assert.equal((await ask(t, randomKey(), "2001:db8:1:3::c")).status, 401, "the next /64 is another network");
  await t.close();
});
