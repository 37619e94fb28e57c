/** API keys (issue 23, ADR 025): made and revoked by a signed-in user, shown once, stored hashed. */
import assert from "node:assert/strict";
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { sql } from "drizzle-orm";
import { API_KEY_DISPLAY_LENGTH, API_KEY_PREFIX, MAX_API_KEYS_PER_ACCOUNT } from "../../contract/api-keys.ts";
import { createTestApp, jsonInit, ORIGIN, signUp, type TestApp } from "../setup/app-harness.ts";
import { createKey, v1Get } from "../setup/api-keys.ts";
import { API_KEY_CREATIONS, pruneRevokedApiKeys, REVOKED_KEY_RETENTION_MS } from "../../server/services/api-keys.ts";

const hex = (text: string) => encodeHexLowerCase(sha256(new TextEncoder().encode(text)));

const listKeys = async (t: TestApp, cookie: string) =>
  (await (await t.request("/api/keys", { headers: { Cookie: cookie } })).json()).keys as Array<
    Record<string, unknown>
  >;

/** Every row of every table, as text: where a secret would show if it were stored. */
async function wholeDatabase(t: TestApp): Promise<string> {
  const tables = await t.db.all<{ name: string }>(
    sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`,
  );
  const dump: unknown[] = [];
  for (const { name } of tables) dump.push(await t.db.all(sql.raw(`SELECT * FROM "${name}"`)));
  return JSON.stringify(dump);
}

Deno.test("the key routes need a session (401)", async () => {
  const t = await createTestApp();
  assert.equal((await t.request("/api/keys")).status, 401);
  assert.equal((await t.request("/api/keys", jsonInit("POST", { name: "x" }))).status, 401);
  assert.equal((await t.request("/api/keys/abc", { method: "DELETE" })).status, 401);
  await t.close();
});

Deno.test("POST /api/keys answers the key once (201); the database holds only its SHA-256 and display prefix", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  const res = await t.request("/api/keys", jsonInit("POST", { name: "  build server " }, { Cookie: cookie }));
  assert.equal(res.status, 201);
  const created = await res.json();
  assert.deepEqual(Object.keys(created).sort(), ["createdAt", "id", "key", "name", "prefix"]);
  assert.equal(created.name, "build server", "the name is trimmed");
  assert.ok(created.key.startsWith(API_KEY_PREFIX));
  assert.ok(created.key.length >= API_KEY_PREFIX.length + 24, "at least 24 characters of randomness");
  assert.match(created.key.slice(API_KEY_PREFIX.length), /^[a-z2-7]{52}$/, "32 random bytes in base32");
  assert.equal(created.prefix, created.key.slice(0, API_KEY_DISPLAY_LENGTH));

  const dump = await wholeDatabase(t);
  assert.ok(!dump.includes(created.key), "no row contains the key");
  assert.ok(!dump.includes(created.key.slice(API_KEY_DISPLAY_LENGTH)), "nor its secret part");
  const [row] = await t.db.all<{ key_hash: string; prefix: string }>(sql`SELECT key_hash, prefix FROM api_keys`);
  assert.equal(row!.key_hash, hex(created.key), "SHA-256 (hex) of the whole key");
  assert.equal(row!.prefix, created.prefix);

  // Never shown again: the list has no secret.
  const keys = await listKeys(t, cookie);
  assert.deepEqual(keys, [{
    id: created.id,
    name: "build server",
    prefix: created.prefix,
    createdAt: created.createdAt,
    lastUsedAt: null,
  }]);
  assert.ok(!JSON.stringify(keys).includes(created.key));
  await t.close();
});

Deno.test("two keys are never the same", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  const a = await createKey(t, cookie, "a");
  const b = await createKey(t, cookie, "b");
  assert.notEqual(a.key, b.key);
  assert.notEqual(a.id, b.id);
  await t.close();
});

Deno.test("POST /api/keys refuses a bad name with 400 and a foreign origin with 403", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  for (
    const [body, pattern] of [
      [{}, /^name must be text$/],
      [{ name: "   " }, /^name: give the key a name$/],
      [{ name: "x".repeat(61) }, /^name must be at most 60 characters$/],
    ] as const
  ) {
    const res = await t.request("/api/keys", jsonInit("POST", body, { Cookie: cookie }));
    assert.equal(res.status, 400);
    assert.match((await res.json()).error, pattern);
  }
  const foreign = await t.request(
    "/api/keys",
    jsonInit("POST", { name: "x" }, { Cookie: cookie, Origin: "https://evil.example" }),
  );
  assert.equal(foreign.status, 403);
  const own = await t.request("/api/keys", jsonInit("POST", { name: "x" }, { Cookie: cookie, Origin: ORIGIN }));
  assert.equal(own.status, 201);
  await t.close();
});

Deno.test(`an account holds at most ${MAX_API_KEYS_PER_ACCOUNT} keys: the next is 409, even when sent in parallel`, async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  const results = await Promise.all(
    Array.from(
      { length: 15 },
      (_, i) => t.request("/api/keys", jsonInit("POST", { name: `k${i}` }, { Cookie: cookie })),
    ),
  );
  const statuses = results.map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 201).length, MAX_API_KEYS_PER_ACCOUNT);
  assert.equal(statuses.filter((s) => s === 409).length, 5);
  const refused = results.find((r) => r.status === 409)!;
  assert.match((await refused.json()).error, /already have 10 API keys.*revoke one/);
  await Promise.all(results.filter((r) => r.status === 201).map((r) => r.body?.cancel()));
  assert.equal((await listKeys(t, cookie)).length, MAX_API_KEYS_PER_ACCOUNT);

  // A revoked key no longer counts.
  const [first] = await listKeys(t, cookie);
  assert.equal(
    (await t.request(`/api/keys/${first!.id}`, { method: "DELETE", headers: { Cookie: cookie } })).status,
    204,
  );
  assert.equal((await t.request("/api/keys", jsonInit("POST", { name: "again" }, { Cookie: cookie }))).status, 201);
  await t.close();
});

Deno.test("DELETE /api/keys/:id revokes at once (204): the key answers 401 on its next request and leaves the list", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  const kept = await createKey(t, cookie, "kept");
  const gone = await createKey(t, cookie, "gone");
  assert.equal((await v1Get(t, gone.key, "/api/v1/jobs/nope")).status, 404, "works before");

  const res = await t.request(`/api/keys/${gone.id}`, { method: "DELETE", headers: { Cookie: cookie } });
  assert.equal(res.status, 204);
  assert.equal(await res.text(), "");
  const after = await v1Get(t, gone.key, "/api/v1/jobs/nope");
  assert.equal(after.status, 401);
  assert.match((await after.json()).error, /revoked/);
  assert.deepEqual((await listKeys(t, cookie)).map((k) => k.name), ["kept"]);
  assert.equal((await v1Get(t, kept.key, "/api/v1/jobs/nope")).status, 404, "the other key still works");

  const twice = await t.request(`/api/keys/${gone.id}`, { method: "DELETE", headers: { Cookie: cookie } });
  assert.equal(twice.status, 404);
  await t.close();
});

Deno.test("another user's key id answers 404 and stays working", async () => {
  const t = await createTestApp();
  const alice = await signUp(t, "alice");
  const bob = await signUp(t, "bob");
  const key = await createKey(t, alice.cookie);
  const res = await t.request(`/api/keys/${key.id}`, { method: "DELETE", headers: { Cookie: bob.cookie } });
  assert.equal(res.status, 404);
  assert.deepEqual(await res.json(), { error: "No such API key" });
  assert.deepEqual(await listKeys(t, bob.cookie), []);
  assert.equal((await listKeys(t, alice.cookie)).length, 1);
  assert.equal((await v1Get(t, key.key, "/api/v1/jobs/nope")).status, 404, "still authenticates");
  await t.close();
});

Deno.test("a key's use is recorded as lastUsedAt, written at most once a minute", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  const key = await createKey(t, cookie);
  await v1Get(t, key.key, "/api/v1/jobs/nope");
  const [first] = await listKeys(t, cookie);
  assert.ok(typeof first!.lastUsedAt === "string");
  await new Promise((r) => setTimeout(r, 5));
  await v1Get(t, key.key, "/api/v1/jobs/nope");
  const [second] = await listKeys(t, cookie);
  assert.equal(second!.lastUsedAt, first!.lastUsedAt, "not written again within the minute");

  // A minute later it is written again.
  await t.db.run(sql`UPDATE api_keys SET last_used_at = last_used_at - 61000`);
  const before = (await listKeys(t, cookie))[0]!.lastUsedAt as string;
  await v1Get(t, key.key, "/api/v1/jobs/nope");
  const [third] = await listKeys(t, cookie);
  assert.ok(Date.parse(third!.lastUsedAt as string) > Date.parse(before));
  await t.close();
});

Deno.test("deleting the account's user deletes its keys (cascade)", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  await createKey(t, cookie);
  await t.db.run(sql`DELETE FROM users`);
  const [{ n }] = await t.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM api_keys`) as [{ n: number }];
  assert.equal(n, 0);
  await t.close();
});

// ---- names: stored exactly as accepted ----------------------------------------------------------------

const CONTROL_OR_BIDI = "name must not contain control or bidirectional formatting characters";

Deno.test("[regression] a name with a control or bidirectional formatting character is refused with 400 naming the rule", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  const refused = [
    "ci\u0000prod", // NUL: was echoed whole and stored cut
    "a\u0007b", // BEL
    "line\nbreak",
    "tab\there",
    "a\u001bb", // ESC
    "del\u007f",
    "c1\u0085x", // NEL
    "c1\u009bx", // CSI
    "invoice\u202Egpj.exe", // RIGHT-TO-LEFT OVERRIDE
    "\u202Aembedded",
    "\u202Dx",
    "iso\u2066late\u2069",
    "\u2067x",
    "\u2068x",
    "mark\u200E",
    "mark\u200Fx",
    "arabic\u061Cmark",
  ];
  for (const name of refused) {
    const res = await t.request("/api/keys", jsonInit("POST", { name }, { Cookie: cookie }));
    assert.equal(res.status, 400, JSON.stringify(name));
    assert.deepEqual(await res.json(), { error: CONTROL_OR_BIDI }, JSON.stringify(name));
  }
  const lone = await t.request("/api/keys", {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookie },
    body: '{"name":"half \\ud83d"}',
  });
  assert.equal(lone.status, 400);
  assert.deepEqual(await lone.json(), { error: "name must be well-formed Unicode text" });
  assert.deepEqual(await listKeys(t, cookie), [], "nothing was stored");
  await t.close();
});

Deno.test("a name is stored exactly as accepted: the 201's name is what GET /api/keys lists, letters of any script included", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  const names = [
    "Ünïcödé — déploiement",
    "מפתח ראשי",
    "مفتاح الخادم",
    "build 🚀 server",
    "日本語のキー",
    "x".repeat(60),
  ];
  for (const name of names) {
    const res = await t.request("/api/keys", jsonInit("POST", { name: `  ${name}\n` }, { Cookie: cookie }));
    assert.equal(res.status, 201, name);
    const created = await res.json();
    assert.equal(created.name, name, "trimmed, nothing else changed");
    const listed = (await listKeys(t, cookie)).find((k) => k.id === created.id);
    assert.equal(listed?.name, created.name);
  }
  await t.close();
});

// ---- creations per hour, and revoked rows' retention ------------------------------------------------------

/** Creates a key and revokes it at once (a create-and-revoke loop stays under the 10 active keys). */
async function createAndRevoke(t: TestApp, cookie: string, name: string) {
  const res = await t.request("/api/keys", jsonInit("POST", { name }, { Cookie: cookie }));
  if (res.status === 201) {
    const { id } = await res.json();
    await t.request(`/api/keys/${id}`, { method: "DELETE", headers: { Cookie: cookie } });
  }
  return res;
}

Deno.test(`an account may create ${API_KEY_CREATIONS.max} keys an hour, revoked or not: then 429 + Retry-After until the oldest leaves the hour`, async () => {
  assert.deepEqual(API_KEY_CREATIONS, { max: 20, windowMs: 3_600_000 }, "the numbers the README states");
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  for (let i = 0; i < API_KEY_CREATIONS.max; i++) assert.equal((await createAndRevoke(t, cookie, `k${i}`)).status, 201);
  const refused = await createAndRevoke(t, cookie, "one more");
  assert.equal(refused.status, 429);
  const retry = Number(refused.headers.get("Retry-After"));
  assert.ok(retry > 3500 && retry <= 3600, `Retry-After ${retry}`);
  assert.deepEqual(await refused.json(), {
    error: "You created 20 API keys in the last hour, the most an account may; try again in 60 min",
  });
  const bob = await signUp(t, "bob");
  assert.equal((await createAndRevoke(t, bob.cookie, "bob's")).status, 201, "another account has its own");

  // The oldest creation leaves the hour: room for one.
  await t.db.run(sql`UPDATE api_keys SET created_at = created_at - 3600000
    WHERE id = (SELECT id FROM api_keys ORDER BY created_at LIMIT 1)`);
  assert.equal((await createAndRevoke(t, cookie, "again")).status, 201);
  assert.equal((await createAndRevoke(t, cookie, "and again")).status, 429);
  await t.close();
});

Deno.test("the hourly limit holds under parallel creations: the count and the insert are one statement", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  for (let i = 0; i < 15; i++) assert.equal((await createAndRevoke(t, cookie, `gone${i}`)).status, 201);
  const results = await Promise.all(
    Array.from(
      { length: 15 },
      (_, i) => t.request("/api/keys", jsonInit("POST", { name: `p${i}` }, { Cookie: cookie })),
    ),
  );
  const statuses = results.map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 201).length, 5, "15 + 5 = 20 this hour (10 active would allow 10)");
  assert.equal(statuses.filter((s) => s === 429).length, 10);
  await Promise.all(results.map((r) => r.body?.cancel()));
  await t.close();
});

Deno.test("past both limits the 429 answers, which says when (revoking one would not help); past only the active keys, 409", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  for (let i = 0; i < 10; i++) assert.equal((await createAndRevoke(t, cookie, `gone${i}`)).status, 201);
  for (let i = 0; i < 10; i++) await createKey(t, cookie, `held${i}`);
  const both = await t.request("/api/keys", jsonInit("POST", { name: "over both" }, { Cookie: cookie }));
  assert.equal(both.status, 429);
  assert.ok(Number(both.headers.get("Retry-After")) > 0);
  await both.body?.cancel();
  await t.db.run(sql`UPDATE api_keys SET created_at = created_at - 3600000`);
  const full = await t.request("/api/keys", jsonInit("POST", { name: "full" }, { Cookie: cookie }));
  assert.equal(full.status, 409);
  assert.match((await full.json()).error, /already have 10 API keys/);
  await t.close();
});

Deno.test("revoked keys' rows are deleted 30 days after their revocation; active keys and newer revocations stay", async () => {
  assert.equal(REVOKED_KEY_RETENTION_MS, 30 * 24 * 3_600_000);
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  const kept = await createKey(t, cookie, "kept");
  const old = await createKey(t, cookie, "old");
  const recent = await createKey(t, cookie, "recent");
  for (const { id } of [old, recent]) {
    await t.request(`/api/keys/${id}`, { method: "DELETE", headers: { Cookie: cookie } });
  }
  const now = Date.now();
  await t.db.run(sql`UPDATE api_keys SET revoked_at = ${now - REVOKED_KEY_RETENTION_MS - 60_000} WHERE id = ${old.id}`);
  await t.db.run(
    sql`UPDATE api_keys SET revoked_at = ${now - REVOKED_KEY_RETENTION_MS + 60_000} WHERE id = ${recent.id}`,
  );
  assert.equal(await pruneRevokedApiKeys(t.db, new Date(now)), 1);
  const ids = (await t.db.all<{ id: string }>(sql`SELECT id FROM api_keys ORDER BY name`)).map((r) => r.id);
  assert.deepEqual(ids, [kept.id, recent.id]);
  // A pruned key is unknown now; one revoked lately still says so.
  assert.match((await (await v1Get(t, old.key, "/api/v1/jobs/x")).json()).error, /^Invalid API key: no such key$/);
  assert.match((await (await v1Get(t, recent.key, "/api/v1/jobs/x")).json()).error, /revoked/);
  await t.close();
});
