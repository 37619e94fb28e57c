import { DEFAULT_THROTTLE } from "../../server/services/login-throttle.ts";
import assert from "node:assert/strict";
import { createTestApp, jsonInit, sessionCookie, signUp } from "../setup/app-harness.ts";
import { expectConsoleError } from "../setup/fail-on-console-error.ts";

Deno.test("POST /api/register creates the user, answers 201 and signs them in", async () => {
  const t = await createTestApp();
  const res = await t.request(
    "/api/register",
    jsonInit("POST", {
      username: "Alice",
      password: "correct horse",
      email: "a@example.com",
      firstName: "Alice",
      lastName: "Liddell",
    }),
  );
  assert.equal(res.status, 201);
  const body = await res.json();
  assert.deepEqual(Object.keys(body).sort(), [
    "email",
    "firstName",
    "id",
    "lastName",
    "subscriptionStatus",
    "username",
  ]);
  assert.equal(body.username, "Alice");
  assert.equal(body.subscriptionStatus, "free");
  const cookie = res.headers.get("set-cookie") ?? "";
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Lax/);
  assert.doesNotMatch(cookie, /Secure/);
  const me = await t.request("/api/user", { headers: { Cookie: sessionCookie(res) } });
  assert.equal(me.status, 200);
  assert.equal((await me.json()).username, "Alice");
  await t.close();
});

Deno.test("POST /api/register sets a Secure cookie when the site is served over https", async () => {
  const t = await createTestApp({ secureCookies: true });
  const res = await t.request("/api/register", jsonInit("POST", { username: "bob", password: "correct horse" }));
  assert.match(res.headers.get("set-cookie") ?? "", /Secure/);
  await t.close();
});

Deno.test("POST /api/register stores blank optional fields as null", async () => {
  const t = await createTestApp();
  const res = await t.request(
    "/api/register",
    jsonInit("POST", { username: "bob", password: "correct horse", email: "", firstName: " " }),
  );
  assert.equal(res.status, 201);
  const body = await res.json();
  assert.equal(body.email, null);
  assert.equal(body.firstName, null);
  await t.close();
});

const badRegistrations: Array<[string, Record<string, unknown>, RegExp]> = [
  ["a short username", { username: "ab", password: "correct horse" }, /username/],
  ["a username with spaces", { username: "a b c", password: "correct horse" }, /username/],
  ["a 33-character username", { username: "a".repeat(33), password: "correct horse" }, /username/],
  ["a missing username", { password: "correct horse" }, /username/],
  ["a 7-character password", { username: "carol", password: "1234567" }, /password/],
  ["a 257-character password", { username: "carol", password: "x".repeat(257) }, /password/],
  ["a missing password", { username: "carol" }, /password/],
  ["an invalid email", { username: "carol", password: "correct horse", email: "not-an-email" }, /email/],
  ["a numeric first name", { username: "carol", password: "correct horse", firstName: 5 }, /firstName/],
];
for (const [what, body, field] of badRegistrations) {
  Deno.test(`POST /api/register rejects ${what} with 400 naming the field`, async () => {
    const t = await createTestApp();
    const res = await t.request("/api/register", jsonInit("POST", body));
    assert.equal(res.status, 400);
    assert.match((await res.json()).error, field);
    await t.close();
  });
}

Deno.test("POST /api/register rejects malformed JSON with 400", async () => {
  const t = await createTestApp();
  const res = await t.request("/api/register", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: "{nope",
  });
  assert.equal(res.status, 400);
  assert.match((await res.json()).error, /JSON/);
  await t.close();
});

Deno.test("POST /api/register answers 409 for a username taken in another case", async () => {
  const t = await createTestApp();
  await signUp(t, "alice");
  const res = await t.request("/api/register", jsonInit("POST", { username: "ALICE", password: "another pass" }));
  assert.equal(res.status, 409);
  assert.match((await res.json()).error, /already taken/);
  await t.close();
});

Deno.test("POST /api/login signs in with the right password, in any username case", async () => {
  const t = await createTestApp();
  await signUp(t, "alice", "correct horse");
  const res = await t.request("/api/login", jsonInit("POST", { username: "Alice", password: "correct horse" }));
  assert.equal(res.status, 200);
  assert.equal((await res.json()).username, "alice");
  const me = await t.request("/api/user", { headers: { Cookie: sessionCookie(res) } });
  assert.equal(me.status, 200);
  await t.close();
});

Deno.test("POST /api/login answers 401 with one message whether or not the user exists", async () => {
  const t = await createTestApp();
  await signUp(t, "alice", "correct horse");
  const wrong = await t.request("/api/login", jsonInit("POST", { username: "alice", password: "wrong horse" }));
  const unknown = await t.request("/api/login", jsonInit("POST", { username: "nobody", password: "wrong horse" }));
  assert.equal(wrong.status, 401);
  assert.equal(unknown.status, 401);
  assert.deepEqual(await wrong.json(), await unknown.json());
  assert.equal(wrong.headers.get("set-cookie"), null);
  await t.close();
});

Deno.test("POST /api/login rejects an empty password with 400", async () => {
  const t = await createTestApp();
  const res = await t.request("/api/login", jsonInit("POST", { username: "alice", password: "" }));
  assert.equal(res.status, 400);
  assert.match((await res.json()).error, /password/);
  await t.close();
});

Deno.test("POST /api/login answers 429 with Retry-After after 5 failures for one username from one address", async () => {
  const t = await createTestApp();
  await signUp(t, "alice", "correct horse");
  const attacker = { remoteAddr: { hostname: "198.51.100.1" } };
  for (let i = 0; i < 5; i++) {
    const res = await t.request(
      "/api/login",
      jsonInit("POST", { username: "alice", password: `wrong ${i}` }),
      attacker,
    );
    assert.equal(res.status, 401);
  }
  // Even the right password is refused from that address while it waits.
  const res = await t.request(
    "/api/login",
    jsonInit("POST", { username: "alice", password: "correct horse" }),
    attacker,
  );
  assert.equal(res.status, 429);
  assert.ok(Number(res.headers.get("retry-after")) > 0);
  // [regression] the owner at another address is not locked out by those failures.
  const owner = await t.request(
    "/api/login",
    jsonInit("POST", { username: "alice", password: "correct horse" }),
    { remoteAddr: { hostname: "192.0.2.50" } },
  );
  assert.equal(owner.status, 200);
  await t.close();
});

Deno.test("POST /api/login answers 429 after 30 failures from one IP across usernames", async () => {
  const t = await createTestApp();
  const env = { remoteAddr: { hostname: "203.0.113.9" } };
  for (let i = 0; i < DEFAULT_THROTTLE.perIp; i++) {
    const res = await t.request("/api/login", jsonInit("POST", { username: `user${i}`, password: "wrong pass" }), env);
    assert.equal(res.status, 401);
  }
  const blocked = await t.request("/api/login", jsonInit("POST", { username: "fresh", password: "wrong pass" }), env);
  assert.equal(blocked.status, 429);
  const otherIp = await t.request("/api/login", jsonInit("POST", { username: "fresh", password: "wrong pass" }), {
    remoteAddr: { hostname: "203.0.113.10" },
  });
  assert.equal(otherIp.status, 401);
  await t.close();
});

Deno.test("GET /api/user answers null without a session and for an unknown token (signed out is not an error)", async () => {
  const t = await createTestApp();
  const none = await t.request("/api/user");
  assert.equal(none.status, 200);
  assert.equal(await none.json(), null);
  const res = await t.request("/api/user", { headers: { Cookie: "session=forged" } });
  assert.equal(res.status, 200);
  assert.equal(await res.json(), null);
  assert.match(res.headers.get("set-cookie") ?? "", /session=;/);
  await t.close();
});

Deno.test("POST /api/logout ends the session on the server", async () => {
  const t = await createTestApp();
  const { cookie } = await signUp(t);
  const res = await t.request("/api/logout", { method: "POST", headers: { Cookie: cookie } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("set-cookie") ?? "", /session=;/);
  // The old cookie no longer works even if a client keeps it.
  assert.equal(await (await t.request("/api/user", { headers: { Cookie: cookie } })).json(), null);
  await t.close();
});

Deno.test("a state-changing request from another site's Origin gets 403", async () => {
  const t = await createTestApp();
  const res = await t.request(
    "/api/register",
    jsonInit("POST", { username: "mallory", password: "correct horse" }, { Origin: "https://evil.example" }),
  );
  assert.equal(res.status, 403);
  const viaReferer = await t.request(
    "/api/login",
    jsonInit("POST", { username: "mallory", password: "correct horse" }, { Referer: "https://evil.example/page" }),
  );
  assert.equal(viaReferer.status, 403);
  const same = await t.request(
    "/api/register",
    jsonInit("POST", { username: "mallory", password: "correct horse" }, { Origin: "http://localhost" }),
  );
  assert.equal(same.status, 201);
  await t.close();
});

Deno.test("PUBLIC_URL's origin is trusted for state-changing requests", async () => {
  const t = await createTestApp({ trustedOrigins: ["https://squeeze.example"] });
  const res = await t.request(
    "/api/register",
    jsonInit("POST", { username: "alice", password: "correct horse" }, { Origin: "https://squeeze.example" }),
  );
  assert.equal(res.status, 201);
  await t.close();
});

Deno.test("an unexpected failure answers 500 with a generic message and no stack", async () => {
  const t = await createTestApp();
  await t.close(); // the database is gone: every query throws
  // The server logs the error for the operator, once; the client gets none of it.
  const { result: res, lines } = await expectConsoleError(
    /^\{"level":"error","msg":"unhandled error","method":"POST","path":"\/api\/register"/,
    () => t.request("/api/register", jsonInit("POST", { username: "alice", password: "correct horse" })),
  );
  assert.equal(lines.length, 1);
  assert.equal(res.status, 500);
  const body = await res.json();
  assert.deepEqual(Object.keys(body), ["error"]);
  assert.doesNotMatch(body.error, /at |Error|libsql/i);
});
