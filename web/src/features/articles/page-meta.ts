import type { ArticleMeta } from "./lib/article-meta.ts";

/** The <title> of an article page, in the page and in its prerendered <head>. */
export const articleTitle = (a: ArticleMeta) => `${a.title} | SqueezeJPEG`;

export const ARTICLES_TITLE = "Image Compression Articles";
