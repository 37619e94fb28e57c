/**
 * `deno task build`'s second step, after `vite build`: renders every public route to
 * `web/dist/<route>/index.html` (the landing page is `web/dist/index.html`), keeps the bare
 * SPA shell as `shell.html` for the other app routes, writes `404.html`, `sitemap.xml` and
 * `robots.txt`, then `.br`/`.gz` twins of the text files. Absolute URLs use PUBLIC_URL, else
 * http://localhost:8000.
 *
 * Every HTML file is written once per byte store kind (`index.html`, `index.file.html`,
 * `index.s3.html`, see contract/storage.ts): what the pages say about images depends on where
 * the server keeps them, and the server picks the variant for its STORE_URL (ADR 020).
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { build } from "vite";
import { fillTemplate, type PageHead, withStoreKind } from "./head.ts";
import { STORE_KINDS, storeVariantPath } from "../../contract/storage.ts";
import { robotsTxt, sitemapXml } from "./sitemap.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const DIST = join(REPO, "web/dist");
const DEFAULT_BASE = "http://localhost:8000";

type EntryServer = typeof import("./entry-server.tsx");

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Builds entry-server.tsx with the app's own Vite config (plugins, globs) into a temp dir and loads it. */
async function loadEntry(outDir: string): Promise<EntryServer> {
  await build({
    configFile: join(REPO, "vite.config.ts"),
    logLevel: "warn",
    build: {
      ssr: join(REPO, "web/prerender/entry-server.tsx"),
      outDir,
      emptyOutDir: true,
      rollupOptions: { output: { entryFileNames: "entry-server.mjs" } },
    },
    // One self-contained file: the temp dir has no node_modules to resolve from.
    ssr: { noExternal: true },
  });
  return await import(pathToFileURL(join(outDir, "entry-server.mjs")).href);
}

const COMPRESSIBLE = /\.(html|js|css|svg|xml|txt|json|webmanifest)$/;

/** Writes `.br` and `.gz` twins of every text file worth compressing (server/static-site.ts serves them). */
async function precompress(dir: string): Promise<number> {
  let count = 0;
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) count += await precompress(path);
    else if (entry.isFile && COMPRESSIBLE.test(entry.name)) {
      const bytes = await Deno.readFile(path);
      if (bytes.length < 1024) continue;
      await Deno.writeFile(`${path}.gz`, gzipSync(bytes, { level: 9 }));
      await Deno.writeFile(
        `${path}.br`,
        brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      );
      count++;
    }
  }
  return count;
}

function outputFile(path: string): string {
  return path === "/" ? join(DIST, "index.html") : join(DIST, path.slice(1), "index.html");
}

async function main() {
  const base = Deno.env.get("PUBLIC_URL") || DEFAULT_BASE;
  new URL(base); // fail early on a malformed PUBLIC_URL
  // A rerun without a fresh `vite build` must not take the prerendered landing page as its template.
  const shellPath = join(DIST, "shell.html");
  const templatePath = (await exists(shellPath)) ? shellPath : join(DIST, "index.html");
  const template = await Deno.readTextFile(templatePath).catch(() => {
    throw new Error("web/dist/index.html is missing: run `vite build` first");
  });

  const tmp = await Deno.makeTempDir({ prefix: "prerender-" });
  try {
    const entry = await loadEntry(tmp);
    const pages: { path: string; head: PageHead; file: string }[] = [];
    const skipped: string[] = [];
    for (const path of entry.publicPaths) {
      try {
        pages.push({ path, head: entry.headFor(path, base), file: outputFile(path) });
      } catch (err) {
        // An article still being written: the route falls back to the shell until its file exists.
        skipped.push(`${path} (${(err as Error).message})`);
      }
    }
    const { NOT_FOUND_PATH } = entry;
    pages.push({ path: NOT_FOUND_PATH, head: entry.headFor(NOT_FOUND_PATH, base), file: join(DIST, "404.html") });
    for (const page of pages) await Deno.mkdir(join(page.file, ".."), { recursive: true });

    for (const kind of STORE_KINDS) {
      const variant = (file: string) => storeVariantPath(file, kind);
      await Deno.writeTextFile(variant(shellPath), withStoreKind(template, kind));
      for (const { path, head, file } of pages) {
        const html = fillTemplate(template, head, await entry.renderPage(path, kind), path);
        await Deno.writeTextFile(variant(file), withStoreKind(html, kind));
      }
    }
    const written = pages.map((p) => p.path).filter((p) => p !== NOT_FOUND_PATH);

    const today = new Date().toISOString().slice(0, 10);
    await Deno.writeTextFile(join(DIST, "sitemap.xml"), sitemapXml(base, written, today));
    await Deno.writeTextFile(join(DIST, "robots.txt"), robotsTxt(base));
    const compressed = await precompress(DIST);
    console.log(
      `Prerendered ${written.length} pages, 404.html and shell.html for stores ${STORE_KINDS.join(", ")}, ` +
        `sitemap.xml and robots.txt for ${base}; ${compressed} files precompressed`,
    );
    if (skipped.length) console.warn(`Not prerendered (served as the SPA shell):\n  ${skipped.join("\n  ")}`);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

await main();
