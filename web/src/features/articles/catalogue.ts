/// <reference types="vite/client" />
import { ARTICLE_COUNT } from "../../../../contract/routes.ts";
import type { ArticleMeta } from "./lib/article-meta.ts";

export type { ArticleMeta } from "./lib/article-meta.ts";
export { CATEGORY_FILTERS } from "./lib/article-meta.ts";

export interface ArticleContent {
  meta: ArticleMeta;
  /** Rendered at build time from our own Markdown, with raw HTML escaped. */
  html: string;
}

// Front matter only (a few KB); bodies are separate chunks loaded per article.
const metaModules = import.meta.glob<ArticleMeta>("./content/*.md", {
  query: "?meta",
  import: "default",
  eager: true,
});
const contentModules = import.meta.glob<ArticleContent>("./content/*.md", { query: "?article", import: "default" });

const fileById = new Map<number, string>();
for (const [file, meta] of Object.entries(metaModules)) {
  const clash = fileById.get(meta.id);
  if (clash) throw new Error(`Articles ${clash} and ${file} share id ${meta.id}`);
  fileById.set(meta.id, file);
}

/** The catalogue (spec §3), ordered by id, derived from the Markdown files. */
export const articles: ArticleMeta[] = Object.values(metaModules)
  .filter((a) => a.id <= ARTICLE_COUNT)
  .sort((a, b) => a.id - b.id);

export function findArticle(id: number): ArticleMeta | undefined {
  return articles.find((a) => a.id === id);
}

const pending = new Map<number, Promise<ArticleContent>>();
const loaded = new Map<number, ArticleContent>();

/** The article's body; the same promise for the same id, so `use()` can suspend on it. */
export function loadArticle(id: number): Promise<ArticleContent> {
  let promise = pending.get(id);
  if (!promise) {
    const file = fileById.get(id);
    const load = file ? contentModules[file] : undefined;
    promise = load ? load() : Promise.reject(new Error(`No article with id ${id}`));
    promise.then((content) => loaded.set(id, content), () => {});
    pending.set(id, promise);
  }
  return promise;
}

/** The body if it has already loaded: lets the prerender render it synchronously. */
export function loadedArticle(id: number): ArticleContent | undefined {
  return loaded.get(id);
}
