import { readFile } from "node:fs/promises";
import type { Plugin } from "vite";
import { parseArticle } from "../lib/article-meta.ts";
import { renderMarkdown } from "./markdown.ts";

/**
 * Turns article Markdown into modules at build time:
 * `article-06.md?meta` → `export default <front matter>` (small, for the catalogue) and
 * `article-06.md?article` → `export default { meta, html }` (one lazy chunk per article).
 * A bad front matter fails the build with the file and field named.
 */
export function articlesPlugin(): Plugin {
  return {
    name: "squeeze-articles",
    enforce: "pre",
    async load(id) {
      const [file, query] = id.split("?", 2);
      if (!file || !query || !file.endsWith(".md")) return null;
      const params = new URLSearchParams(query);
      const wantsMeta = params.has("meta");
      if (!wantsMeta && !params.has("article")) return null;
      this.addWatchFile(file);
      const { meta, body } = parseArticle(await readFile(file, "utf8"), file);
      const value = wantsMeta ? meta : { meta, html: renderMarkdown(body) };
      return { code: `export default ${JSON.stringify(value)};`, map: null };
    },
  };
}
