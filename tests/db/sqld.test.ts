/**
 * The app's database on a real libSQL server (sqld, standing for Turso or a self-hosted libSQL
 * server), as several instances will share it: migrations over HTTP, and the atomic conditional
 * update that job leases will be built on.
 */
import assert from "node:assert/strict";
import { and, eq, sql } from "drizzle-orm";
import { createDb } from "../../db/client.ts";
import { batches, jobs, users } from "../../db/schema.ts";
import { ensureSqld, startSqld } from "../setup/sqld.ts";

// Install sqld through the project's script when missing. Under CI a failure fails the tests;
// elsewhere (a machine the npm binary does not run on) they are skipped with the reason.
const unavailable = await ensureSqld().then(() => null, (err: Error) => err);
const ignore = unavailable !== null && Deno.env.get("CI") !== "true";
if (ignore) console.warn(`Skipping the sqld tests: ${unavailable.message}`);

function test(name: string, fn: () => Promise<void>) {
  Deno.test({
    name,
    ignore,
    fn: async () => {
      if (unavailable) throw unavailable;
      await fn();
    },
  });
}

test("createDb runs the app's migrations on a sqld server at http://127.0.0.1:PORT", async () => {
  const sqld = await startSqld();
  try {
    assert.match(sqld.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const first = await createDb({ url: sqld.url });
    const tables = await first.db.all<{ name: string }>(
      sql`select name from sqlite_master where type = 'table' order by name`,
    );
    const names = tables.map((t) => t.name);
    for (const table of ["users", "sessions", "batches", "jobs", "daily_usage"]) {
      assert.ok(names.includes(table), table);
    }
    // A second instance opening the same database finds the migrations applied and sees the first one's rows.
    await first.db.insert(users).values({ username: "ada", passwordHash: "x" });
    const second = await createDb({ url: sqld.url });
    assert.equal((await second.db.select().from(users)).length, 1);
    first.close();
    second.close();
  } finally {
    await sqld.stop();
  }
});

test("two instances racing to claim the same pending jobs: exactly one wins each", async () => {
  const sqld = await startSqld();
  const a = await createDb({ url: sqld.url });
  const b = await createDb({ url: sqld.url });
  try {
    const [user] = await a.db.insert(users).values({ username: "racer", passwordHash: "x" }).returning();
    assert.ok(user);
    await a.db.insert(batches).values({
      id: "batch-1",
      userId: user.id,
      name: "race",
      totalFiles: 20,
      totalOriginalSize: 20,
      settingsJson: "{}",
    });
    const ids = Array.from({ length: 20 }, (_, i) => `job-${i}`);
    await a.db.insert(jobs).values(ids.map((id, seq) => ({
      id,
      batchId: "batch-1",
      userId: user.id,
      seq,
      filename: `${id}.jpg`,
      originalSize: 1,
      quality: 80,
      format: "jpeg" as const,
    })));

    // The claim: one statement that changes the row only while it is still pending.
    const claim = (db: typeof a.db, id: string, owner: string) =>
      db.update(jobs).set({ status: "processing", errorMessage: owner })
        .where(and(eq(jobs.id, id), eq(jobs.status, "pending")))
        .returning({ id: jobs.id });

    const results = await Promise.all(ids.map(async (id) => {
      const [byA, byB] = await Promise.all([claim(a.db, id, "a"), claim(b.db, id, "b")]);
      return { id, a: byA.length, b: byB.length };
    }));
    for (const r of results) assert.equal(r.a + r.b, 1, `${r.id}: a claimed ${r.a}, b claimed ${r.b}`);

    const rows = await b.db.select().from(jobs);
    assert.ok(rows.every((j) => j.status === "processing"));
    for (const r of results) {
      assert.equal(
        rows.find((j) => j.id === r.id)?.errorMessage,
        r.a ? "a" : "b",
        `${r.id}: the winner's write stands`,
      );
    }
  } finally {
    a.close();
    b.close();
    await sqld.stop();
  }
});
