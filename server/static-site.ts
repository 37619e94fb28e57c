import type { Context } from "hono";
import { extname, join, normalize } from "node:path";
import { isAppPath } from "../contract/routes.ts";

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
 * Serves the built web app: real files, then a page's prerendered HTML
 * (`about/index.html`), then the SPA shell; unknown pages get the shell with 404.
 */
export function serveSite(dist: string) {
  return async (c: Context) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return c.json({ error: "Not found" }, 404);
    const path = decodeURIComponent(new URL(c.req.url).pathname);
    const safe = normalize(path).replace(/^(\.\.(\/|$))+/, "");
    if (extname(safe)) {
      const body = await readIfFile(join(dist, safe));
      if (!body) return c.text("Not found", 404);
      const hashed = safe.startsWith("/assets/");
      return c.body(body, 200, {
        "Content-Type": TYPES[extname(safe)] ?? "application/octet-stream",
        "Cache-Control": hashed ? "public, max-age=31536000, immutable" : "public, max-age=300",
      });
    }
    const page = isAppPath(safe) ? (await readIfFile(join(dist, safe, "index.html"))) : null;
    const shell = page ?? await readIfFile(join(dist, "index.html"));
    if (!shell) return c.text("The web app is not built: run `deno task build`", 500);
    return c.body(shell, isAppPath(safe) ? 200 : 404, {
      "Content-Type": TYPES[".html"]!,
      "Cache-Control": "no-cache",
    });
  };
}
