import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { extname, join, normalize } from "node:path";
import { isAppPath } from "../contract/routes.ts";
import { SESSION_COOKIE } from "./services/sessions.ts";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml",
  ".webmanifest": "application/manifest+json",
  ".woff2": "font/woff2",
};

async function readIfFile(path: string): Promise<Uint8Array<ArrayBuffer> | null> {
  try {
    return await Deno.readFile(path);
  } catch {
    return null;
  }
}

/**
 * A file of the build, or its `.br`/`.gz` twin (written by web/prerender/) when the browser
 * accepts that encoding: text assets go out compressed without compressing per request.
 */
async function readPrecompressed(
  dist: string,
  path: string,
  acceptEncoding: string | undefined,
): Promise<{ body: Uint8Array<ArrayBuffer>; headers: Record<string, string> } | null> {
  const accepts = (acceptEncoding ?? "").toLowerCase();
  for (const [encoding, suffix] of [["br", ".br"], ["gzip", ".gz"]] as const) {
    if (!accepts.includes(encoding)) continue;
    const body = await readIfFile(join(dist, path + suffix));
    if (body) return { body, headers: { "Content-Encoding": encoding, "Vary": "Accept-Encoding" } };
  }
  const body = await readIfFile(join(dist, path));
  return body ? { body, headers: { "Vary": "Accept-Encoding" } } : null;
}

/**
 * Serves the built web app: real files, then a page's prerendered HTML
 * (`about/index.html`), then the SPA shell; unknown pages get the shell with 404.
 */
export function serveSite(dist: string) {
  return async (c: Context) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return c.json({ error: "Not found" }, 404);
    let path: string;
    try {
      path = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      return c.json({ error: "The address has a malformed %-escape" }, 400);
    }
    const safe = normalize(path).replace(/^(\.\.(\/|$))+/, "");
    if (extname(safe)) {
      const file = await readPrecompressed(dist, safe, c.req.header("Accept-Encoding"));
      if (!file) return c.text("Not found", 404);
      const hashed = safe.startsWith("/assets/");
      return c.body(file.body, 200, {
        "Content-Type": TYPES[extname(safe)] ?? "application/octet-stream",
        "Cache-Control": hashed ? "public, max-age=31536000, immutable" : "public, max-age=300",
        ...file.headers,
      });
    }
    // Prerendered pages (`<path>/index.html`, web/prerender/) are what a signed-out visitor sees, so
    // the browser can skip asking who is signed in. A session cookie gets the bare SPA shell instead
    // (its `/` is the compressor), as do the other app paths; unknown paths get the 404 page.
    const signedIn = getCookie(c, SESSION_COOKIE) !== undefined;
    const app = isAppPath(safe);
    const accept = c.req.header("Accept-Encoding");
    const prerendered = app && !signedIn ? await readPrecompressed(dist, join(safe, "index.html"), accept) : null;
    const page = prerendered ?? await readPrecompressed(dist, app ? "shell.html" : "404.html", accept) ??
      await readPrecompressed(dist, "index.html", accept);
    if (!page) return c.text("The web app is not built: run `deno task build`", 500);
    return c.body(page.body, app ? 200 : 404, {
      "Content-Type": TYPES[".html"]!,
      "Cache-Control": "no-cache",
      ...page.headers,
    });
  };
}
