import assert from "node:assert/strict";
import { CONTACT_PER_HOUR } from "../../contract/contact.ts";
import { listContactMessages } from "../../db/queries/contact.ts";
import { submitContactMessage } from "../../server/services/contact.ts";
import { createTestApp, jsonInit } from "../setup/app-harness.ts";
import { DomainError } from "../../server/domain-error.ts";

const VALID = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  subject: "Batch limits",
  message: "How many files can I upload at once on Premium?",
};

/** Deno.serve's handler info, so the app sees a client address. */
const from = (hostname: string) => ({ remoteAddr: { hostname, port: 1234, transport: "tcp" } });

Deno.test("POST /api/contact stores a valid message with the sender's IP and answers 201", async () => {
  const t = await createTestApp();
  const res = await t.request(
    "/api/contact",
    jsonInit("POST", { ...VALID, name: "  Ada Lovelace  " }),
    from("203.0.113.7"),
  );
  assert.equal(res.status, 201);
  assert.deepEqual(await res.json(), { success: true });
  const rows = await listContactMessages(t.deps.db);
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.name, "Ada Lovelace");
  assert.equal(rows[0]!.email, VALID.email);
  assert.equal(rows[0]!.subject, VALID.subject);
  assert.equal(rows[0]!.message, VALID.message);
  assert.equal(rows[0]!.ip, "203.0.113.7");
  t.close();
});

Deno.test("POST /api/contact is open to visitors who are not signed in", async () => {
  const t = await createTestApp();
  const res = await t.request("/api/contact", jsonInit("POST", VALID));
  assert.equal(res.status, 201);
  t.close();
});

const badMessages: Array<[string, Record<string, unknown>, RegExp]> = [
  ["a missing name", { ...VALID, name: undefined }, /^name is required$/],
  ["a blank name", { ...VALID, name: "   " }, /^name is required$/],
  ["a missing email", { ...VALID, email: undefined }, /^email is required$/],
  ["an invalid email", { ...VALID, email: "ada-at-example" }, /^email must be a valid email address$/],
  ["a missing subject", { ...VALID, subject: "" }, /^subject is required$/],
  ["a missing message", { ...VALID, message: undefined }, /^message is required$/],
  ["a numeric message", { ...VALID, message: 42 }, /^message is required$/],
  ["a 5001-character message", { ...VALID, message: "x".repeat(5001) }, /^message must be at most 5000 characters$/],
  ["a 101-character name", { ...VALID, name: "n".repeat(101) }, /^name must be at most 100 characters$/],
];
for (const [what, body, error] of badMessages) {
  Deno.test(`POST /api/contact rejects ${what} with 400 naming the field and stores nothing`, async () => {
    const t = await createTestApp();
    const res = await t.request("/api/contact", jsonInit("POST", body));
    assert.equal(res.status, 400);
    assert.match((await res.json()).error, error);
    assert.equal((await listContactMessages(t.deps.db)).length, 0);
    t.close();
  });
}

Deno.test("POST /api/contact rejects malformed JSON with 400", async () => {
  const t = await createTestApp();
  const res = await t.request("/api/contact", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: "{oops",
  });
  assert.equal(res.status, 400);
  assert.match((await res.json()).error, /JSON/);
  t.close();
});

Deno.test("POST /api/contact answers a filled honeypot like a success but stores nothing", async () => {
  const t = await createTestApp();
  const res = await t.request("/api/contact", jsonInit("POST", { ...VALID, website: "http://spam.example" }));
  assert.equal(res.status, 201);
  assert.deepEqual(await res.json(), { success: true });
  assert.equal((await listContactMessages(t.deps.db)).length, 0);
  t.close();
});

Deno.test("POST /api/contact allows 5 messages per hour per IP, then answers 429 with Retry-After", async () => {
  const t = await createTestApp();
  for (let i = 0; i < CONTACT_PER_HOUR; i++) {
    const res = await t.request("/api/contact", jsonInit("POST", VALID), from("198.51.100.1"));
    assert.equal(res.status, 201, `message ${i + 1}`);
  }
  const refused = await t.request("/api/contact", jsonInit("POST", VALID), from("198.51.100.1"));
  assert.equal(refused.status, 429);
  assert.match((await refused.json()).error, /^Too many messages from your network: please try again in \d+ minutes?$/);
  const retryAfter = Number(refused.headers.get("retry-after"));
  assert.ok(retryAfter > 3500 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
  // Another address is not affected.
  const other = await t.request("/api/contact", jsonInit("POST", VALID), from("198.51.100.2"));
  assert.equal(other.status, 201);
  assert.equal((await listContactMessages(t.deps.db)).length, CONTACT_PER_HOUR + 1);
  t.close();
});

Deno.test("the contact rate limit reopens an hour after the oldest message", async () => {
  const t = await createTestApp();
  const start = Date.now();
  // Five messages now; the sixth is tried half an hour later, then again just over an hour later.
  for (let i = 0; i < CONTACT_PER_HOUR; i++) {
    await submitContactMessage(t.deps.db, VALID, "192.0.2.9");
  }
  const later = new Date(start + 30 * 60_000);
  await assert.rejects(
    submitContactMessage(t.deps.db, VALID, "192.0.2.9", later),
    (err: Error) => {
      assert.ok(err instanceof DomainError);
      assert.equal(err.code, "rate_limited");
      assert.ok(err.retryAfterSeconds! > 29 * 60 && err.retryAfterSeconds! <= 30 * 60);
      assert.match(err.message, /in (29|30) minutes$/);
      return true;
    },
  );
  const afterAnHour = new Date(start + 60 * 60_000 + 1000);
  const outcome = await submitContactMessage(t.deps.db, VALID, "192.0.2.9", afterAnHour);
  assert.equal(outcome.stored, true);
  t.close();
});
