/**
 * Built by Vite for SSR (see prerender.ts) and run at build time: renders a public page as a
 * visitor sees it and says what its <head> holds. Nothing here runs in the browser.
 */
import { renderToString } from "react-dom/server";
import { paths, publicPaths } from "../../contract/routes.ts";
import { createQueryClient } from "@web-api/query-client.ts";
import { App } from "../src/app/app.tsx";
import { USER_QUERY_KEY } from "../src/features/auth/data/get-user.ts";
import { articles, findArticle, loadArticle } from "../src/features/articles/catalogue.ts";
import { articleTitle } from "../src/features/articles/page-meta.ts";
import { NOT_FOUND_META, PUBLIC_PAGE_META } from "../src/features/public/page-meta.ts";
import { absoluteUrl } from "./sitemap.ts";
import type { PageHead } from "./head.ts";
import type { StoreKind } from "../../contract/storage.ts";

export { articles, publicPaths };

/**
 * The page's HTML as a signed-out visitor gets it from a server whose byte store is `storeKind`.
 * The article body is loaded first so the page renders in one synchronous pass: complete HTML
 * without React's streaming scripts (inline scripts would also be refused by our Content-Security-Policy).
 */
export async function renderPage(path: string, storeKind: StoreKind): Promise<string> {
  const article = path.match(/^\/article(\d+)$/);
  if (article) await loadArticle(Number(article[1]));
  const queryClient = createQueryClient();
  // Prerendering happens without a user: render the visitor view, not a spinner.
  queryClient.setQueryData(USER_QUERY_KEY, null);
  const html = renderToString(<App queryClient={queryClient} ssrPath={path} storeKind={storeKind} />);
  queryClient.clear();
  if (html.includes("<!--$?-->") || html.includes("<!--$!-->")) {
    throw new Error(`Prerendering ${path} left a Suspense boundary unresolved`);
  }
  return html;
}

export const NOT_FOUND_PATH = "/404";

export function headFor(path: string, base: string): PageHead {
  const canonical = absoluteUrl(base, path);
  const article = path.match(/^\/article(\d+)$/);
  if (article) {
    const meta = findArticle(Number(article[1]));
    if (!meta) throw new Error(`No article file for ${path}`);
    return {
      title: articleTitle(meta),
      description: meta.description,
      canonical,
      type: "article",
      jsonLd: {
        "@context": "https://schema.org",
        "@type": "Article",
        headline: meta.title,
        description: meta.description,
        articleSection: meta.category,
        educationalLevel: meta.difficulty,
        timeRequired: `PT${meta.readMinutes}M`,
        inLanguage: "en",
        url: canonical,
        mainEntityOfPage: { "@type": "WebPage", "@id": canonical },
        author: { "@type": "Organization", name: "SqueezeJPEG", url: absoluteUrl(base, paths.home) },
        publisher: { "@type": "Organization", name: "SqueezeJPEG", url: absoluteUrl(base, paths.home) },
      },
    };
  }
  if (path === NOT_FOUND_PATH) return { ...NOT_FOUND_META, canonical, type: "website", noindex: true };
  const meta = (PUBLIC_PAGE_META as Record<string, { title: string; description: string }>)[path];
  if (!meta) throw new Error(`No page metadata for ${path}`);
  return { ...meta, canonical, type: "website" };
}
