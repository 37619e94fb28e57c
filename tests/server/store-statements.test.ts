/**
 * The pages say what the configured byte store does with images (DESIGN §5, ADR 020): the server
 * picks the prerendered variant for its store kind. Needs `deno task build` (as prerender.test.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync } from "node:zlib";
import { STORE_KINDS, STORE_STATEMENTS, type StoreKind } from "../../contract/storage.ts";
import { createTestApp, signUp, type TestApp } from "../setup/app-harness.ts";

const DIST = fileURLToPath(new URL("../../web/dist", import.meta.url));
const MEMORY_CLAIM = /never written to disk|never touch the disk/;

try {
  Deno.statSync(join(DIST, "shell.s3.html"));
} catch {
  throw new Error("web/dist has no page variants per store kind: run `deno task build` first");
}

async function withSite(storeKind: StoreKind, fn: (t: TestApp) => Promise<void>) {
  const t = await createTestApp({ webDist: DIST, storeKind });
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

const kindOf = (html: string) => html.match(/<meta name="store-kind" content="([^"]*)"/)?.[1] ?? null;

/** The page's text as a reader sees it: no tags or React's text markers, entities decoded, spaces collapsed. */
const textOf = (html: string) =>
  html.replace(/<!--[\s\S]*?-->/g, "").replace(/<[^>]+>/g, " ").replace(/&#x27;/g, "'").replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&").replace(/\s+/g, " ");

for (const kind of STORE_KINDS) {
  Deno.test(`with a ${kind} store, /privacy states what that store does, and the meta tag names it`, () =>
    withSite(kind, async (t) => {
      const res = await t.request("/privacy");
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.equal(kindOf(html), kind);
      const text = textOf(html);
      const statements = STORE_STATEMENTS[kind];
      assert.ok(text.includes(`${statements.privacyLead} ${statements.privacy}`), "the precise statement");
      assert.ok(text.includes(statements.security), "the security sentence");
      if (kind === "memory") assert.match(text, MEMORY_CLAIM);
      else {
        assert.doesNotMatch(text, MEMORY_CLAIM);
        assert.match(text, /survive a server restart/);
      }
    }));

  Deno.test(`with a ${kind} store, the brotli twin, the shell and the 404 page are that store's variant`, () =>
    withSite(kind, async (t) => {
      const br = await t.request("/privacy", { headers: { "Accept-Encoding": "br" } });
      assert.equal(br.headers.get("content-encoding"), "br");
      const decoded = new TextDecoder().decode(brotliDecompressSync(new Uint8Array(await br.arrayBuffer())));
      assert.equal(kindOf(decoded), kind);
      assert.equal(/never written to disk/.test(decoded), kind === "memory");

      // /auth and a signed-in visitor's / get the bare shell: the browser reads the kind from it.
      const auth = await (await t.request("/auth")).text();
      assert.match(auth, /<div id="root"><\/div>/);
      assert.equal(kindOf(auth), kind);
      const { cookie } = await signUp(t, "reader");
      const home = await (await t.request("/", { headers: { Cookie: cookie } })).text();
      assert.match(home, /<div id="root"><\/div>/);
      assert.equal(kindOf(home), kind);

      const missing = await t.request("/no-such-page");
      assert.equal(missing.status, 404);
      assert.equal(kindOf(await missing.text()), kind);

      for (const path of ["/", "/about", "/contact"]) {
        const page = textOf(await (await t.request(path)).text());
        assert.ok(page.includes(STORE_STATEMENTS[kind].short), `${path} has the short statement`);
        assert.equal(MEMORY_CLAIM.test(page), kind === "memory", `${path}: the memory claim only with memory`);
      }
    }));
}

Deno.test("a page without its variant (a build from before them) falls back to the memory file", async () => {
  const dist = await Deno.makeTempDir();
  await Deno.mkdir(join(dist, "privacy"));
  await Deno.writeTextFile(join(dist, "shell.html"), "<title>shell</title>");
  await Deno.writeTextFile(join(dist, "privacy", "index.html"), "<title>memory privacy</title>");
  await Deno.writeTextFile(join(dist, "privacy", "index.s3.html"), "<title>s3 privacy</title>");
  const warn = console.warn;
  const warnings: string[] = [];
  console.warn = (message: string) => warnings.push(message);
  try {
    for (const [kind, privacy] of [["s3", /s3 privacy/], ["file", /memory privacy/], ["memory", /memory privacy/]]) {
      const t = await createTestApp({ webDist: dist, storeKind: kind as StoreKind });
      assert.match(await (await t.request("/privacy")).text(), privacy as RegExp);
      assert.match(await (await t.request("/auth")).text(), /shell/);
      await t.close();
    }
  } finally {
    console.warn = warn;
  }
  // Said once per start for each kind whose shell variant is missing, never for memory.
  assert.equal(warnings.length, 2);
  assert.match(warnings[0]!, /no shell\.s3\.html/);
  assert.match(warnings[1]!, /no shell\.file\.html/);
});
