/** sitemap.xml and robots.txt for the public paths (contract/routes.ts publicPaths). */
const xmlEscape = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The absolute URL of `path` on the site at `base` (no trailing slash doubling). */
export function absoluteUrl(base: string, path: string): string {
  return new URL(path, base.endsWith("/") ? base : `${base}/`).href;
}

export function sitemapXml(base: string, paths: string[], lastmod: string): string {
  const urls = paths.map((p) =>
    `  <url>\n    <loc>${xmlEscape(absoluteUrl(base, p))}</loc>\n    <lastmod>${lastmod}</lastmod>\n  </url>`
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${
    urls.join("\n")
  }\n</urlset>\n`;
}

export function robotsTxt(base: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /api/",
    "Disallow: /auth",
    "Disallow: /subscribe",
    "Disallow: /billing/",
    "",
    `Sitemap: ${absoluteUrl(base, "/sitemap.xml")}`,
    "",
  ].join("\n");
}
