/** The app's page routes (spec §2): one table for the router, the server's 404s and the sitemap. */
export const ARTICLE_COUNT = 20;

export const paths = {
  home: "/",
  auth: "/auth",
  subscribe: "/subscribe",
  about: "/about",
  privacy: "/privacy",
  contact: "/contact",
  articles: "/articles",
  developers: "/developers",
  article: (id: number) => `/article${id}`,
  testCheckout: (sessionId: string) => `/billing/test-checkout/${encodeURIComponent(sessionId)}`,
} as const;

export const articlePaths: string[] = Array.from({ length: ARTICLE_COUNT }, (_, i) => paths.article(i + 1));

/** Pages anyone can open; these are prerendered and listed in the sitemap. */
export const publicPaths: string[] = [
  paths.home,
  paths.about,
  paths.privacy,
  paths.contact,
  paths.articles,
  paths.developers,
  ...articlePaths,
];

/** True when `path` is a page of the app (anything else answers 404). */
export function isAppPath(path: string): boolean {
  const p = path.length > 1 ? path.replace(/\/+$/, "") : path;
  return publicPaths.includes(p) || p === paths.auth || p === paths.subscribe ||
    /^\/billing\/test-checkout\/[^/]+$/.test(p);
}

/** A same-site path to return to after sign-in, or null for anything else. */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  return value;
}
