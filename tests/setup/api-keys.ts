/** Helpers for the developer API's tests: a key made through the session routes, and `/api/v1` calls with it. */
import type { CreatedApiKey } from "../../contract/api-keys.ts";
import { jsonInit, type TestApp } from "./app-harness.ts";

/** POST /api/keys as the signed-in user: the created key, secret included. */
export async function createKey(t: TestApp, cookie: string, name = "ci"): Promise<CreatedApiKey> {
  const res = await t.request("/api/keys", jsonInit("POST", { name }, { Cookie: cookie }));
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${await res.text()}`);
  return await res.json();
}

export const bearer = (key: string, headers: Record<string, string> = {}) => ({
  Authorization: `Bearer ${key}`,
  ...headers,
});

/** POST /api/v1/compress with the image's bytes as the body and `query` as the settings. */
export async function v1Compress(
  t: TestApp,
  key: string,
  image: Blob | ReadableStream<Uint8Array> | null,
  query = "",
  init: RequestInit = {},
) {
  return await t.request(`/api/v1/compress${query ? `?${query}` : ""}`, {
    method: "POST",
    ...init,
    headers: bearer(key, { "Content-Type": "image/jpeg", ...init.headers as Record<string, string> }),
    body: image,
    duplex: "half",
  } as RequestInit);
}

/** GET an `/api/v1` path with the key. */
export const v1Get = async (t: TestApp, key: string, path: string) => await t.request(path, { headers: bearer(key) });
