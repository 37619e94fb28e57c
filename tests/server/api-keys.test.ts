/** API keys (issue 23, ADR 025): made and revoked by a signed-in user, shown once, stored hashed. */
import assert from "node:assert/strict";
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { sql } from "drizzle-orm";
import { API_KEY_DISPLAY_LENGTH, API_KEY_PREFIX, MAX_API_KEYS_PER_ACCOUNT } from "../../contract/api-keys.ts";
import { createTestApp, jsonInit, ORIGIN, signUp, type TestApp } from "../setup/app-harness.ts";
import { createKey, v1Get } from "../setup/api-keys.ts";

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
