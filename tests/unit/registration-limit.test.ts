import assert from "node:assert/strict";
import { createDb } from "../../db/client.ts";
import { RegistrationLimit } from "../../server/services/registration-limit.ts";

const HOUR = 3_600_000;

Deno.test("RegistrationLimit allows `limit` sign-ups per address an hour, then says when the next is allowed", async () => {
  const database = await createDb({ url: ":memory:" });
  let now = 0;
  const r = new RegistrationLimit(database.db, 3, HOUR, () => now);
  for (let i = 0; i < 3; i++) {
    now += 60_000;
    assert.equal(await r.take("203.0.113.1"), 0);
  }
  assert.equal(await r.take("203.0.113.1"), 3480, "at 3 minutes: the first of the three ages out at 61");
  assert.equal(await r.take("203.0.113.2"), 0, "another address has its own count");
  now = HOUR;
  assert.equal(await r.take("203.0.113.1"), 60, "a refused take is not counted");
  now = HOUR + 60_000;
  assert.equal(await r.take("203.0.113.1"), 0);
  database.close();
});

Deno.test("[regression] RegistrationLimit is exact under concurrency: one conditional INSERT", async () => {
  const database = await createDb({ url: ":memory:" });
  const r = new RegistrationLimit(database.db, 10);
  const waits = await Promise.all(Array.from({ length: 50 }, () => r.take("203.0.113.1")));
  assert.equal(waits.filter((w) => w === 0).length, 10);
  database.close();
});

Deno.test("[regression] a sign-up counted by an instance whose clock is ahead never makes the wait longer than the window", async () => {
  const database = await createDb({ url: ":memory:" });
  let now = HOUR;
  const ahead = new RegistrationLimit(database.db, 2, HOUR, () => now + 5_000);
  const here = new RegistrationLimit(database.db, 2, HOUR, () => now);
  assert.equal(await ahead.take("203.0.113.1"), 0);
  assert.equal(await ahead.take("203.0.113.1"), 0);
  assert.equal(await here.take("203.0.113.1"), 3600, "the window, not 3,605 s");
  now += 60_000;
  assert.equal(await here.take("203.0.113.1"), 3545);
  database.close();
});
