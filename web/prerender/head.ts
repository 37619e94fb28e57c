import { STORE_KIND_META, type StoreKind } from "../../contract/storage.ts";

/** The <head> tags a prerendered page carries (title, description, canonical, Open Graph, JSON-LD). */
export interface PageHead {
  title: string;
  description: string;
  /** Absolute URL of the page. */
  canonical: string;
  type: "website" | "article";
  /** Structured data, serialised into `<script type="application/ld+json">`. */
  jsonLd?: Record<string, unknown>;
  /** Keep the page out of search results (the 404 page). */
  noindex?: boolean;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** JSON that cannot close its <script> element early. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

export function headTags(head: PageHead): string {
  const tags = [
    `<link rel="canonical" href="${escapeHtml(head.canonical)}" />`,
    `<meta property="og:site_name" content="SqueezeJPEG" />`,
    `<meta property="og:type" content="${head.type}" />`,
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(head.canonical)}" />`,
    `<meta property="og:locale" content="en_US" />`,
    `<meta name="twitter:card" content="summary" />`,
  ];
  if (head.noindex) tags.push(`<meta name="robots" content="noindex" />`);
  if (head.jsonLd) tags.push(`<script type="application/ld+json">${scriptSafeJson(head.jsonLd)}</script>`);
  return tags.join("\n    ");
}

const STORE_KIND_TAG = new RegExp(`<meta\\s+name="${STORE_KIND_META}"\\s+content="[^"]*"\\s*/?>`);

/**
 * Sets the page's `<meta name="store-kind">` (web/index.html carries it, set to the default), from
 * which the browser learns the store kind the page was rendered for (ADR 020).
 */
export function withStoreKind(html: string, kind: StoreKind): string {
  if (!STORE_KIND_TAG.test(html)) throw new Error(`web/dist/index.html lacks the <meta name="${STORE_KIND_META}">`);
  return html.replace(STORE_KIND_TAG, `<meta name="${STORE_KIND_META}" content="${kind}" />`);
}

/**
 * Fills Vite's index.html with a page: its title and description replace the defaults,
 * the other tags go before </head>, the rendered app into #root (marked as prerendered).
 */
export function fillTemplate(template: string, head: PageHead, appHtml: string, path: string): string {
  const withTitle = template.replace(/<title>[\s\S]*?<\/title>/, `<title>${escapeHtml(head.title)}</title>`);
  const withDescription = withTitle.replace(
    /<meta\s+name="description"[\s\S]*?\/?>/,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
  );
  if (withDescription === withTitle || !withDescription.includes('<div id="root"></div>')) {
    throw new Error('web/dist/index.html lacks the <meta name="description"> or the empty <div id="root"> to fill');
  }
  return withDescription
    .replace("</head>", `  ${headTags(head)}\n  </head>`)
    .replace('<div id="root"></div>', `<div id="root" data-prerendered="${escapeHtml(path)}">${appHtml}</div>`);
}
