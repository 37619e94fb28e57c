import assert from "node:assert/strict";
import { createDb } from "../../db/client.ts";
import { insertUser } from "../../db/queries/users.ts";
import { createSession, SESSION_TTL_MS, validateSession } from "../../server/services/sessions.ts";

const DAY = 24 * 60 * 60 * 1000;

async function withUser() {
  const database = await createDb({ url: ":memory:" });
  const user = await insertUser(database.db, {
    username: "alice",
    passwordHash: "x",
    email: null,
    firstName: null,
    lastName: null,
  });
  return { ...database, userId: user!.id };
}

Deno.test("sessions store only the token's SHA-256, never the token", async () => {
  const { db, userId, close } = await withUser();
  const { token } = await createSession(db, userId);
  const rows = await db.query.sessions.findMany();
  assert.equal(rows.length, 1);
  assert.notEqual(rows[0]!.id, token);
  assert.match(rows[0]!.id, /^[0-9a-f]{64}$/);
  close();
});

Deno.test("a session lasts 30 days and slides forward when used in its second half", async () => {
  const { db, userId, close } = await withUser();
  const start = new Date("2026-01-01T00:00:00Z");
  const { token, expiresAt } = await createSession(db, userId, start);
  assert.equal(expiresAt.getTime() - start.getTime(), SESSION_TTL_MS);

  const early = await validateSession(db, token, new Date(start.getTime() + 5 * DAY));
  assert.equal(early?.renewedUntil, null);

  const late = new Date(start.getTime() + 20 * DAY);
  const renewed = await validateSession(db, token, late);
  assert.equal(renewed?.renewedUntil?.getTime(), late.getTime() + SESSION_TTL_MS);

  const afterOriginalExpiry = await validateSession(db, token, new Date(start.getTime() + 31 * DAY));
  assert.ok(afterOriginalExpiry, "the renewed session outlives the original expiry");

  const expired = await validateSession(db, token, new Date(late.getTime() + SESSION_TTL_MS + 1));
  assert.equal(expired, null);
  assert.equal((await db.query.sessions.findMany()).length, 0, "an expired session is deleted");
  close();
});

Deno.test("purgeExpiredSessions deletes expired sessions and keeps live ones", async () => {
  const { purgeExpiredSessions } = await import("../../server/services/sessions.ts");
  const { db, userId, close } = await withUser();
  const start = new Date("2026-01-01T00:00:00Z");
  await createSession(db, userId, start);
  const live = await createSession(db, userId, new Date(start.getTime() + 20 * DAY));
  await purgeExpiredSessions(db, new Date(start.getTime() + 31 * DAY));
  const rows = await db.query.sessions.findMany();
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.expiresAt.getTime(), live.expiresAt.getTime());
  close();
});
