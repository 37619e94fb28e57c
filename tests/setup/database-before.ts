import assert from "node:assert/strict";
import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql/web";
import { migrate } from "drizzle-orm/libsql/migrator";

/**
 * A database file at the migration before `tag`: the committed migrations up to it, copied with a
 * journal that ends there, so the app's own start applies `tag` (and any after it) to rows written
 * the old way. Answers its libSQL URL.
 */
export async function databaseBefore(dir: string, tag: string): Promise<string> {
  const source = new URL("../../db/migrations/", import.meta.url);
  const journal = JSON.parse(await Deno.readTextFile(new URL("meta/_journal.json", source)));
  const before = journal.entries.filter((e: { tag: string }) => e.tag < tag);
  assert.ok(before.length < journal.entries.length, `${tag} is a committed migration`);
  await Deno.mkdir(`${dir}/migrations/meta`, { recursive: true });
  for (const { tag } of before) await Deno.copyFile(new URL(`${tag}.sql`, source), `${dir}/migrations/${tag}.sql`);
  await Deno.writeTextFile(`${dir}/migrations/meta/_journal.json`, JSON.stringify({ ...journal, entries: before }));
  const url = `file:${dir}/app.db`;
  const client = createClient({ url });
  try {
    await migrate(drizzle(client), { migrationsFolder: `${dir}/migrations` });
  } finally {
    client.close();
  }
  return url;
}
