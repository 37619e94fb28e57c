import type { Client } from "@libsql/client";
import { createClient as createRemoteClient } from "@libsql/client/web";
// The web entry only wraps a client it is given: importing "drizzle-orm/libsql" would load the native addon.
import { drizzle } from "drizzle-orm/libsql/web";
import { migrate } from "drizzle-orm/libsql/migrator";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import * as schema from "./schema.ts";

export type Db = ReturnType<typeof drizzle<typeof schema>>;

export interface DbOptions {
  /** `file:path.db`, `:memory:`, `libsql://…` or `http(s)://…`. */
  url: string;
  authToken?: string;
}

const MIGRATIONS = fileURLToPath(new URL("./migrations", import.meta.url));

/** Opens the database and applies the committed migrations. */
export async function createDb({ url, authToken }: DbOptions): Promise<{ db: Db; close(): void }> {
  if (url.startsWith("file:")) {
    // @libsql/client does not create the database's folder.
    await mkdir(dirname(url.slice("file:".length)), { recursive: true });
  }
  // A libSQL server (sqld, Turso) is spoken to in plain JS over HTTP or WebSockets; only a local
  // file or :memory: needs the native libsql addon (FFI), loaded then alone, so a deployment on a
  // remote database runs with no FFI permission (Deno Deploy).
  const local = url.startsWith("file:") || url === ":memory:";
  const client: Client = local
    ? (await import("@libsql/client")).createClient({ url, authToken })
    : createRemoteClient({ url, authToken });
  if (local) {
    await client.execute("PRAGMA foreign_keys = ON");
    if (url.startsWith("file:")) {
      await client.execute("PRAGMA journal_mode = WAL");
      // With WAL, NORMAL syncs at checkpoints instead of every commit: still corruption-safe, and a
      // status write no longer stalls the event loop on fsync (the file client runs on this thread).
      await client.execute("PRAGMA synchronous = NORMAL");
      // Another process (a migration, a bench, an admin shell) may hold the lock briefly: wait, don't fail.
      await client.execute("PRAGMA busy_timeout = 5000");
    }
  }
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder: MIGRATIONS });
  return { db, close: () => client.close() };
}
