/** ADR 019: two app instances on one database share the sign-in and sign-up limits, and a restart keeps them. */
import assert from "node:assert/strict";
import { createTestApp, jsonInit, type TestApp } from "../setup/app-harness.ts";

const from = (ip: string) => ({ remoteAddr: { hostname: ip } });
const login = (t: TestApp, username: string, password: string, ip: string) =>
  t.request("/api/login", jsonInit("POST", { username, password }), from(ip));
const register = (t: TestApp, username: string, ip: string) =>
  t.request("/api/register", jsonInit("POST", { username, password: "correct horse" }), from(ip));

async function twoInstances(options: { registrationsPerHour?: number } = {}) {
  const dir = await Deno.makeTempDir();
  const databaseUrl = `file:${dir}/app.db`;
  const a = await createTestApp({ databaseUrl, ...options });
  const b = await createTestApp({ databaseUrl, ...options });
  const close = async () => {
    await a.close();
    await b.close();
    await Deno.remove(dir, { recursive: true });
  };
  return { a, b, databaseUrl, close };
}

Deno.test("[regression] failures through instance A lock the pair on instance B; the owner elsewhere still signs in", async () => {
  const { a, b, close } = await twoInstances();
  assert.equal((await register(a, "alice", "192.0.2.50")).status, 201);
  for (let i = 0; i < 5; i++) {
    const res = await login(i % 2 ? a : b, "alice", `wrong ${i}`, "198.51.100.1");
    assert.equal(res.status, 401);
  }
  for (const t of [a, b]) {
    const res = await login(t, "alice", "correct horse", "198.51.100.1");
    assert.equal(res.status, 429, "even the right password waits, on either instance");
    assert.ok(Number(res.headers.get("retry-after")) > 0);
  }
  assert.equal((await login(b, "alice", "correct horse", "192.0.2.50")).status, 200);
  await close();
});

Deno.test("[regression] sign-ups through instance A count on instance B", async () => {
  const { a, b, close } = await twoInstances({ registrationsPerHour: 2 });
  assert.equal((await register(a, "user1", "203.0.113.1")).status, 201);
  assert.equal((await register(b, "user2", "203.0.113.1")).status, 201);
  const third = await register(a, "user3", "203.0.113.1");
  assert.equal(third.status, 429);
  assert.ok(Number(third.headers.get("retry-after")) > 0);
  assert.equal((await register(b, "user4", "203.0.113.1")).status, 429);
  assert.equal((await register(b, "user5", "203.0.113.2")).status, 201, "another address has its own count");
  await close();
});

Deno.test("a restart keeps the counts: a new instance on the database still refuses the locked pair", async () => {
  const { a, databaseUrl, close } = await twoInstances();
  for (let i = 0; i < 5; i++) await login(a, "bob", `wrong ${i}`, "198.51.100.2");
  const restarted = await createTestApp({ databaseUrl });
  assert.equal((await login(restarted, "bob", "wrong again", "198.51.100.2")).status, 429);
  await restarted.close();
  await close();
});
