import MarkdownIt from "markdown-it";

/**
 * Article Markdown → HTML, at build time only (no renderer ships to the browser).
 * Raw HTML in the source is escaped, not passed through (`html: false`), and
 * markdown-it's link validation drops `javascript:` and similar URLs.
 */
const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

// Wide tables scroll inside their own box instead of widening the page on phones.
md.renderer.rules.table_open = () =>
  '<div class="table-scroll" tabindex="0" role="region" aria-label="Table">\n<table>\n';
md.renderer.rules.table_close = () => "</table>\n</div>\n";

// Links leaving the site open normally but do not pass our page as referrer-capable opener.
const defaultLinkOpen = md.renderer.rules.link_open ??
  ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  const href = token.attrGet("href") ?? "";
  if (/^https?:\/\//.test(href)) token.attrSet("rel", "noopener noreferrer");
  return defaultLinkOpen(tokens, idx, options, env, self);
};

/** Article bodies start at H2 (the page's H1 is the title): a stray `# ` is demoted. */
md.core.ruler.push("demote-h1", (state) => {
  for (const token of state.tokens) {
    if ((token.type === "heading_open" || token.type === "heading_close") && token.tag === "h1") token.tag = "h2";
  }
});

export function renderMarkdown(source: string): string {
  return md.render(source);
}

/** Every `href` in rendered HTML, for link checks. */
export function linksIn(html: string): string[] {
  return [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
}
