/**
 * The built site as a crawler without JavaScript sees it: `deno task build` must have run
 * (`deno task test` builds first). Served through the app, as in production.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join, relative } from "node:path";
import { ARTICLE_COUNT, isAppPath, publicPaths } from "../../contract/routes.ts";
import { STORE_KINDS, storeVariantPath } from "../../contract/storage.ts";
import { createTestApp, signUp, type TestApp } from "../setup/app-harness.ts";

const DIST = fileURLToPath(new URL("../../web/dist", import.meta.url));
const BASE = Deno.env.get("PUBLIC_URL") || "http://localhost:8000";

try {
  Deno.statSync(`${DIST}/shell.html`);
} catch {
  throw new Error("web/dist has no prerendered pages: run `deno task build` first");
}

/** The page's main heading and content, as a crawler reads them. */
const PAGES: Record<string, { h1: RegExp; text: RegExp[] }> = {
  "/": { h1: /Compress JPEG images without losing quality/, text: [/Upload Images/, /Learn Image Compression/] },
  "/about": { h1: /About SqueezeJPEG/, text: [/Our mission/, /MozJPEG and jpegli/, /Get in Touch/] },
  "/privacy": { h1: /Privacy Policy/, text: [/Last updated:/, /argon2id/, /an hour after the compression/] },
  "/contact": { h1: /Contact Us/, text: [/Monday-Friday, 9 AM-6 PM EST/, /Start Chat/, /Frequently Asked Questions/] },
  "/articles": { h1: /Image Compression Articles/, text: [/Popular Categories/, /Read Article/, /© 2025/] },
};

async function page(t: TestApp, path: string, headers: Record<string, string> = {}) {
  const res = await t.request(path, { headers });
  return { status: res.status, type: res.headers.get("content-type") ?? "", html: await res.text() };
}

const h1Of = (html: string) => html.match(/<h1[^>]*>([\s\S]*?)<\/h1>/)?.[1]?.replace(/<[^>]+>/g, "") ?? null;
const rootOf = (html: string) => html.match(/<div id="root"[^>]*>([\s\S]*)<\/div>\s*<\/body>/)?.[1] ?? "";
const attr = (html: string, pattern: RegExp) => html.match(pattern)?.[1] ?? null;

async function withSite(fn: (t: TestApp) => Promise<void>) {
  const t = await createTestApp({ webDist: DIST });
  try {
    await fn(t);
  } finally {
    t.close();
  }
}

for (const [path, expected] of Object.entries(PAGES)) {
  Deno.test(`GET ${path} returns prerendered HTML with its heading, text and head tags, without JavaScript`, () =>
    withSite(async (t) => {
      const { status, type, html } = await page(t, path);
      assert.equal(status, 200);
      assert.match(type, /text\/html/);
      assert.match(h1Of(html) ?? "", expected.h1);
      for (const text of expected.text) assert.match(rootOf(html), text);
      assert.equal(attr(html, /<link rel="canonical" href="([^"]+)"/), new URL(path, BASE).href);
      assert.equal(attr(html, /<meta property="og:url" content="([^"]+)"/), new URL(path, BASE).href);
      assert.ok((attr(html, /<meta name="description" content="([^"]+)"/) ?? "").length > 50);
      assert.match(html, /<meta property="og:title" content="[^"]+"/);
      assert.equal(html.match(/<title>/g)?.length, 1);
      assert.match(html, /<div id="root" data-prerendered="/);
    }));
}

Deno.test("every article page is prerendered with its body, head tags and JSON-LD Article", () =>
  withSite(async (t) => {
    const missing: string[] = [];
    for (let id = 1; id <= ARTICLE_COUNT; id++) {
      const { status, html } = await page(t, `/article${id}`);
      assert.equal(status, 200);
      if (!html.includes("data-prerendered")) {
        missing.push(`/article${id}`);
        continue;
      }
      const title = h1Of(html);
      assert.ok(title && title.length > 10, `/article${id} has an h1`);
      assert.match(html, new RegExp(`<title>[^<]*\\| SqueezeJPEG</title>`));
      assert.match(rootOf(html), /What You(&#x27;|')ll Learn/);
      const body = rootOf(html).match(/<div class="article-body">([\s\S]*?)<\/div><!--\/\$-->/)?.[1] ?? "";
      assert.ok(body.replace(/<[^>]+>/g, " ").split(/\s+/).length > 500, `/article${id} has its body`);
      assert.equal(attr(html, /<meta property="og:type" content="([^"]+)"/), "article");
      const ld = JSON.parse(attr(html, /<script type="application\/ld\+json">([\s\S]*?)<\/script>/) ?? "null");
      assert.equal(ld["@type"], "Article");
      assert.equal(ld.url, new URL(`/article${id}`, BASE).href);
      assert.ok(typeof ld.headline === "string" && ld.headline.length > 10);
      // React's streaming scripts would be blocked by the CSP: the HTML must be complete without them.
      assert.doesNotMatch(html, /<script>/);
    }
    assert.deepEqual(missing, [], `not prerendered (article file missing at build time): ${missing.join(", ")}`);
  }));

Deno.test("an unknown path answers 404 with the prerendered 404 page, kept out of search results", () =>
  withSite(async (t) => {
    const { status, html } = await page(t, "/no-such-page");
    assert.equal(status, 404);
    assert.equal(h1Of(html), "404 Page Not Found");
    assert.match(html, /<meta name="robots" content="noindex"/);
  }));

Deno.test("/auth gets the empty SPA shell, and / gets it too for a visitor with a session cookie", () =>
  withSite(async (t) => {
    const auth = await page(t, "/auth");
    assert.equal(auth.status, 200);
    assert.match(auth.html, /<div id="root"><\/div>/);
    const { cookie } = await signUp(t, "reader");
    const home = await page(t, "/", { Cookie: cookie });
    assert.match(home.html, /<div id="root"><\/div>/);
    const visitor = await page(t, "/");
    assert.match(visitor.html, /data-prerendered="\/"/);
  }));

Deno.test("sitemap.xml lists every public page with absolute URLs and robots.txt points at it", () =>
  withSite(async (t) => {
    const sitemap = await page(t, "/sitemap.xml");
    assert.equal(sitemap.status, 200);
    assert.match(sitemap.type, /xml/);
    const locs = [...sitemap.html.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    assert.deepEqual(locs.sort(), publicPaths.map((p) => new URL(p, BASE).href).sort());
    const robots = await page(t, "/robots.txt");
    assert.equal(robots.status, 200);
    assert.match(robots.html, /^User-agent: \*$/m);
    assert.match(robots.html, new RegExp(`^Sitemap: ${new URL("/sitemap.xml", BASE).href}$`, "m"));
    assert.match(robots.html, /^Disallow: \/api\/$/m);
  }));

Deno.test("every internal link on the prerendered public pages resolves", () =>
  withSite(async (t) => {
    const links = new Map<string, string>();
    for (const path of publicPaths) {
      const { html } = await page(t, path);
      for (const [, href] of rootOf(html).matchAll(/href="([^"]+)"/g)) {
        const target = href!.replaceAll("&amp;", "&");
        if (target.startsWith("/") && !target.startsWith("//")) links.set(target, path);
      }
    }
    assert.ok(links.size > 20);
    const broken: string[] = [];
    for (const [href, from] of links) {
      const url = new URL(href, "http://x");
      const res = await t.request(url.pathname + url.search);
      await res.body?.cancel();
      if (res.status !== 200 || !isAppPath(url.pathname)) broken.push(`${href} (on ${from}): ${res.status}`);
    }
    assert.deepEqual(broken, []);
  }));

Deno.test("pages and assets go out precompressed to browsers that accept brotli or gzip", () =>
  withSite(async (t) => {
    const br = await t.request("/about", { headers: { "Accept-Encoding": "gzip, deflate, br" } });
    assert.equal(br.headers.get("content-encoding"), "br");
    assert.equal(br.headers.get("vary"), "Accept-Encoding");
    await br.body?.cancel();
    const plain = await page(t, "/about");
    const script = attr(plain.html, /<script type="module" crossorigin src="([^"]+)"/)!;
    const gz = await t.request(script, { headers: { "Accept-Encoding": "gzip" } });
    assert.equal(gz.headers.get("content-encoding"), "gzip");
    const js = await new Response(gz.body!.pipeThrough(new DecompressionStream("gzip"))).text();
    const original = await t.request(script);
    assert.equal(js, await original.text());
  }));

/** Every HTML file of the build under `dir`, as paths relative to DIST. */
async function htmlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...await htmlFiles(path));
    else if (entry.name.endsWith(".html")) out.push(relative(DIST, path));
  }
  return out;
}

Deno.test("every HTML output exists once per store kind, with its meta tag and the same precompressed twins", async () => {
  const all = new Set(await htmlFiles(DIST));
  const variantName = new RegExp(`\\.(${STORE_KINDS.join("|")})\\.html$`);
  const pages = [...all].filter((p) => !variantName.test(p));
  // Each public page, 404.html and shell.html.
  assert.equal(pages.length, publicPaths.length + 2, pages.join(", "));
  assert.equal(all.size, pages.length * STORE_KINDS.length);
  const exists = (path: string) => Deno.stat(join(DIST, path)).then(() => true, () => false);
  for (const page of pages) {
    const twins = await exists(`${page}.br`);
    assert.equal(await exists(`${page}.gz`), twins);
    for (const kind of STORE_KINDS) {
      const variant = storeVariantPath(page, kind);
      const html = await Deno.readTextFile(join(DIST, variant));
      assert.equal(html.match(/<meta name="store-kind" content="([^"]*)"/g)?.length, 1, variant);
      assert.match(html, new RegExp(`<meta name="store-kind" content="${kind}"`), variant);
      assert.equal(await exists(`${variant}.br`), twins, `${variant}.br`);
      assert.equal(await exists(`${variant}.gz`), twins, `${variant}.gz`);
    }
  }
});
