import { createApp } from "../../server/app.ts";
import type { AppDeps } from "../../server/app-env.ts";
import { createDb } from "../../db/client.ts";
import { LoginThrottle } from "../../server/services/login-throttle.ts";

export const ORIGIN = "http://localhost";

/** A fresh app on its own `:memory:` database. */
export async function createTestApp(overrides: Partial<AppDeps> = {}) {
  const database = await createDb({ url: ":memory:" });
  const deps: AppDeps = {
    db: database.db,
    throttle: new LoginThrottle(),
    trustedOrigins: [],
    secureCookies: false,
    logRequests: false,
    ...overrides,
  };
  const app = createApp(deps);
  const request = (path: string, init: RequestInit = {}, env?: unknown) =>
    app.request(new Request(new URL(path, ORIGIN), init), undefined, env as never);
  return { app, deps, request, close: database.close };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

export function jsonInit(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) };
}

/** The `name=value` pair of the session cookie a response set. */
export function sessionCookie(res: Response): string {
  const header = res.headers.get("set-cookie") ?? "";
  const match = header.match(/session=([^;]*)/);
  if (!match || !match[1]) throw new Error(`No session cookie in: ${header}`);
  return `session=${match[1]}`;
}

/** Registers a user and returns the cookie that signs them in. */
export async function signUp(
  t: TestApp,
  username = "alice",
  password = "correct horse",
  extra: Record<string, unknown> = {},
) {
  const res = await t.request("/api/register", jsonInit("POST", { username, password, ...extra }));
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  return { cookie: sessionCookie(res), user: await res.json() };
}
