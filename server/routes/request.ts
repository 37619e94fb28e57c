import type { Context } from "hono";
import { ApiError } from "../http-error.ts";

/** The JSON body; an absent body reads as `{}`, malformed JSON is a 400. */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "The request body is not valid JSON");
  }
}

/** The peer address from Deno.serve's handler info (absent under app.request in tests). */
export function clientIp(c: Context): string {
  const info = c.env as { remoteAddr?: { hostname?: string } } | undefined;
  return info?.remoteAddr?.hostname ?? "unknown";
}
