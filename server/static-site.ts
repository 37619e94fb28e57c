import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { extname, join, normalize } from "node:path";
import { isAppPath } from "../contract/routes.ts";
import { DEFAULT_STORE_KIND, type StoreKind, storeVariantPath } from "../contract/storage.ts";
import { SESSION_COOKIE } from "./services/sessions.ts";
import type { Logger } from "./log.ts";

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
  ".wasm": "application/wasm",
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
 * An HTML page as prerendered for this store kind (`privacy/index.s3.html`), so its statements
 * about images hold (ADR 020). The plain file (the memory variant) stands in only when the
 * variant is missing: a build from before variants, or Vite's dev output.
 */
async function readPage(dist: string, path: string, kind: StoreKind, acceptEncoding: string | undefined) {
  const variant = storeVariantPath(path, kind);
  return (variant !== path ? await readPrecompressed(dist, variant, acceptEncoding) : null) ??
    await readPrecompressed(dist, path, acceptEncoding);
}

/** A build from before variants would tell visitors what the memory store does: say so at start. */
function warnIfVariantsMissing(dist: string, kind: StoreKind, log: Logger): void {
  if (kind === DEFAULT_STORE_KIND) return;
  const shell = storeVariantPath("shell.html", kind);
  try {
    Deno.statSync(join(dist, shell));
  } catch {
    log.warn(`web/dist has no ${shell}: pages will describe the memory store; run \`deno task build\``);
  }
}

/**
 * Serves the built web app: real files, then a page's prerendered HTML
 * (`about/index.html`), then the SPA shell; unknown pages get the shell with 404.
 * HTML comes in the variant for `storeKind`, the byte store this server runs with.
 */
export function serveSite(dist: string, storeKind: StoreKind, log: Logger) {
  warnIfVariantsMissing(dist, storeKind, log);
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
    const prerendered = app && !signedIn ? await readPage(dist, join(safe, "index.html"), storeKind, accept) : null;
    const page = prerendered ?? await readPage(dist, app ? "shell.html" : "404.html", storeKind, accept) ??
      await readPage(dist, "index.html", storeKind, accept);
    if (!page) return c.text("The web app is not built: run `deno task build`", 500);
    return c.body(page.body, app ? 200 : 404, {
      "Content-Type": TYPES[".html"]!,
      "Cache-Control": "no-cache",
      ...page.headers,
    });
  };
}
