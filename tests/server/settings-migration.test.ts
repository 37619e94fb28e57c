/**
 * Migration 0007 (ADR 024): a batch's options move from their columns into its settings JSON, so the
 * batch keeps its priority, concurrency and pause-on-error; saved settings that are not JSON go.
 */
import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { DEFAULT_SAVED_SETTINGS, DEFAULT_SETTINGS } from "../../contract/settings.ts";
import { hashPassword } from "../../server/services/passwords.ts";
import { createTestApp, jsonInit, sessionCookie } from "../setup/app-harness.ts";
import { databaseBefore } from "../setup/database-before.ts";

Deno.test("migration 0007 keeps every batch's options and reads old rows as the one settings shape", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const url = await databaseBefore(dir, "0007_settings_shape");
    const client = createClient({ url });
    try {
      const hash = await hashPassword("correct horse");
      await client.execute({
        sql: "INSERT INTO users (id, username, password_hash, settings_json) VALUES (1, 'olduser', ?, NULL), " +
          "(2, 'broken', ?, '{not json')",
        args: [hash, hash],
      });
      // As the previous build wrote them: the options in columns, the JSON holding compression settings only.
      const batch = (id: string, priority: string, maxConcurrent: number, pauseOnError: number, status: string) => ({
        sql: "INSERT INTO batches (id, user_id, name, status, total_files, total_original_size, priority, " +
          "max_concurrent, pause_on_error, settings_json) VALUES (?, 1, ?, ?, 1, 1000, ?, ?, ?, ?)",
        args: [
          id,
          id,
          status,
          priority,
          maxConcurrent,
          pauseOnError,
          JSON.stringify({ ...DEFAULT_SETTINGS, quality: 55 }),
        ],
      });
      await client.execute(batch("b-high", "high", 7, 1, "paused"));
      await client.execute(batch("b-low", "low", 1, 0, "pending"));
      await client.execute({
        sql: "INSERT INTO jobs (id, batch_id, user_id, seq, filename, status, original_size, quality, format) " +
          "VALUES ('j1', 'b-high', 1, 0, 'a.jpg', 'pending', 1000, 55, 'jpeg'), " +
          "('j2', 'b-low', 1, 0, 'b.jpg', 'pending', 1000, 55, 'jpeg')",
        args: [],
      });
    } finally {
      client.close();
    }

    const t = await createTestApp({ databaseUrl: url });
    try {
      const login = await t.request("/api/login", jsonInit("POST", { username: "olduser", password: "correct horse" }));
      const cookie = sessionCookie(login);
      const res = await t.request("/api/batches", { headers: { Cookie: cookie } });
      const byId = new Map((await res.json()).batches.map((b: { id: string }) => [b.id, b]));
      assert.deepEqual(
        ["b-high", "b-low"].map((id) => {
          const { priority, maxConcurrent, pauseOnError, jobs } = byId.get(id) as Record<string, unknown> & {
            jobs: { settings: { quality: number } }[];
          };
          return { priority, maxConcurrent, pauseOnError, quality: jobs[0]!.settings.quality };
        }),
        [
          { priority: "high", maxConcurrent: 7, pauseOnError: true, quality: 55 },
          { priority: "low", maxConcurrent: 1, pauseOnError: false, quality: 55 },
        ],
      );
      const broken = await t.request("/api/login", jsonInit("POST", { username: "broken", password: "correct horse" }));
      const settings = await t.request("/api/settings", { headers: { Cookie: sessionCookie(broken) } });
      assert.deepEqual((await settings.json()).settings, DEFAULT_SAVED_SETTINGS);
    } finally {
      await t.close();
    }
    const check = createClient({ url });
    try {
      const columns = (await check.execute("SELECT name FROM pragma_table_info('batches')")).rows.map((r) => r.name);
      for (const gone of ["priority", "max_concurrent", "pause_on_error"]) assert.ok(!columns.includes(gone), gone);
      const stored = await check.execute("SELECT settings_json FROM batches WHERE id = 'b-high'");
      assert.deepEqual(JSON.parse(String(stored.rows[0]!.settings_json)), {
        ...DEFAULT_SETTINGS,
        quality: 55,
        priority: "high",
        maxConcurrent: 7,
        pauseOnError: true,
      });
      assert.equal((await check.execute("SELECT settings_json FROM users WHERE id = 2")).rows[0]!.settings_json, null);
    } finally {
      check.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
