import assert from "node:assert/strict";
import { createDb } from "../../db/client.ts";
import { insertUser } from "../../db/queries/users.ts";
import {
  createSession,
  invalidateOtherSessions,
  SESSION_IDLE_MS,
  SESSION_MAX_AGE_MS,
  validateSession,
} from "../../server/services/sessions.ts";

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

Deno.test("a session lasts 14 idle days and slides forward when used in its second half", async () => {
  const { db, userId, close } = await withUser();
  const start = new Date("2026-01-01T00:00:00Z");
  const { token, expiresAt } = await createSession(db, userId, start);
  assert.equal(expiresAt.getTime() - start.getTime(), SESSION_IDLE_MS);

  const early = await validateSession(db, token, new Date(start.getTime() + 3 * DAY));
  assert.equal(early?.renewedUntil, null);

  const late = new Date(start.getTime() + 10 * DAY);
  const renewed = await validateSession(db, token, late);
  assert.equal(renewed?.renewedUntil?.getTime(), late.getTime() + SESSION_IDLE_MS);

  const afterOriginalExpiry = await validateSession(db, token, new Date(start.getTime() + 15 * DAY));
  assert.ok(afterOriginalExpiry, "the renewed session outlives the original expiry");

  const expired = await validateSession(db, token, new Date(late.getTime() + SESSION_IDLE_MS + 1));
  assert.equal(expired, null);
  assert.equal((await db.query.sessions.findMany()).length, 0, "an expired session is deleted");
  close();
});

Deno.test("[regression] a session used every day still ends 30 days after sign-in", async () => {
  const { db, userId, close } = await withUser();
  const start = new Date("2026-01-01T00:00:00Z");
  const { token } = await createSession(db, userId, start);
  let last = null;
  for (let day = 1; day < 30; day++) {
    last = await validateSession(db, token, new Date(start.getTime() + day * DAY));
    assert.ok(last, `still signed in on day ${day}`);
  }
  assert.ok(last!.renewedUntil === null || last!.renewedUntil.getTime() <= start.getTime() + SESSION_MAX_AGE_MS);
  assert.equal(await validateSession(db, token, new Date(start.getTime() + SESSION_MAX_AGE_MS)), null);
  close();
});

Deno.test("invalidateOtherSessions ends every other session of the user and keeps this one", async () => {
  const { db, userId, close } = await withUser();
  const mine = await createSession(db, userId);
  const other = await createSession(db, userId);
  const third = await createSession(db, userId);
  assert.equal(await invalidateOtherSessions(db, userId, mine.token), 2);
  assert.ok(await validateSession(db, mine.token));
  assert.equal(await validateSession(db, other.token), null);
  assert.equal(await validateSession(db, third.token), null);
  close();
});

Deno.test("purgeExpiredSessions deletes expired sessions and keeps live ones", async () => {
  const { purgeExpiredSessions } = await import("../../server/services/sessions.ts");
  const { db, userId, close } = await withUser();
  const start = new Date("2026-01-01T00:00:00Z");
  await createSession(db, userId, start);
  const live = await createSession(db, userId, new Date(start.getTime() + 10 * DAY));
  await purgeExpiredSessions(db, new Date(start.getTime() + 15 * DAY));
  const rows = await db.query.sessions.findMany();
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.expiresAt.getTime(), live.expiresAt.getTime());
  close();
});
