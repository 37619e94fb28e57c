import assert from "node:assert/strict";
import { linksIn, renderMarkdown } from "../../web/src/features/articles/build/markdown.ts";
import { parseArticle } from "../../web/src/features/articles/lib/article-meta.ts";
import { FrontMatterError, parseFrontMatter } from "../../web/src/features/articles/lib/front-matter.ts";
import { countWords } from "../../web/src/features/articles/lib/word-count.ts";

const ARTICLE = `---
id: 3
title: "How to Compress a \\"5MB\\" Image"
description: 'It''s easier than you think'
category: Tutorials
difficulty: Intermediate
readTime: 6 min
cta: Try Our Compressor
learn:
  - "First thing"
  - Second thing
---

## Start

Body text.
`;

Deno.test("front matter reads plain, double-quoted and single-quoted values and lists", () => {
  const { data, body } = parseFrontMatter(ARTICLE, "a.md");
  assert.equal(data.title, 'How to Compress a "5MB" Image');
  assert.equal(data.description, "It's easier than you think");
  assert.equal(data.category, "Tutorials");
  assert.deepEqual(data.learn, ["First thing", "Second thing"]);
  assert.equal(body, "## Start\n\nBody text.\n");
});

Deno.test("parseArticle turns front matter into a catalogue entry", () => {
  const { meta } = parseArticle(ARTICLE, "a.md");
  assert.deepEqual(meta, {
    id: 3,
    title: 'How to Compress a "5MB" Image',
    description: "It's easier than you think",
    category: "Tutorials",
    difficulty: "Intermediate",
    readTime: "6 min",
    readMinutes: 6,
    cta: "Try Our Compressor",
    learn: ["First thing", "Second thing"],
  });
});

const broken: Array<[string, string, RegExp]> = [
  ["no front matter", "## Just a body\n", /must start with a ---/],
  ["an unclosed front matter", "---\nid: 1\n", /no closing ---/],
  ["a line that is not key: value", "---\nid 1\n---\n", /line 2: expected "key: value"/],
  ["an unterminated quote", '---\ntitle: "oops\n---\n', /line 2: unterminated "quoted" value/],
  ["a list item outside a list", "---\n  - stray\n---\n", /a list item outside a list/],
];
for (const [what, source, error] of broken) {
  Deno.test(`front matter with ${what} is an error naming the problem`, () => {
    assert.throws(() => parseFrontMatter(source, "bad.md"), (err: Error) => {
      assert.ok(err instanceof FrontMatterError);
      assert.match(err.message, /^bad\.md/);
      assert.match(err.message, error);
      return true;
    });
  });
}

const badFields: Array<[string, string, RegExp]> = [
  ["a category outside the spec's list", ARTICLE.replace("category: Tutorials", "category: Cats"), /"category"/],
  ["an unknown difficulty", ARTICLE.replace("Intermediate", "Expert"), /"difficulty"/],
  ["a read time without minutes", ARTICLE.replace("6 min", "six"), /"readTime"/],
  ["a missing title", ARTICLE.replace(/^title:.*$/m, ""), /"title" is missing/],
  ["a non-numeric id", ARTICLE.replace("id: 3", "id: three"), /"id"/],
  ["no learn list", ARTICLE.replace(/learn:[\s\S]*?---/, "---"), /"learn"/],
];
for (const [what, source, error] of badFields) {
  Deno.test(`parseArticle rejects ${what}, naming the file and field`, () => {
    assert.throws(() => parseArticle(source, "article-03.md"), (err: Error) => {
      assert.match(err.message, /^article-03\.md/);
      assert.match(err.message, error);
      return true;
    });
  });
}

Deno.test("the Markdown renderer escapes raw HTML instead of passing it through", () => {
  const html = renderMarkdown('Hello <script>alert(1)</script> and <img src=x onerror="alert(2)">\n');
  assert.doesNotMatch(html, /<script>|<img/);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
});

Deno.test("the Markdown renderer drops javascript: links", () => {
  const html = renderMarkdown("[click](javascript:alert(1)) and [ok](/article3)\n");
  assert.doesNotMatch(html, /href="javascript:/);
  assert.deepEqual(linksIn(html), ["/article3"]);
});

Deno.test("the Markdown renderer wraps tables in a scrollable region and demotes an H1", () => {
  const html = renderMarkdown("# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
  assert.match(html, /^<h2>Title<\/h2>/);
  assert.match(html, /<div class="table-scroll"[^>]*role="region"[^>]*>\n<table>/);
  assert.match(html, /<\/table>\n<\/div>/);
  assert.match(html, /<td>1<\/td>/);
});

Deno.test("the Markdown renderer marks external links noopener and keeps code escaped", () => {
  const html = renderMarkdown('[MDN](https://developer.mozilla.org/)\n\n```html\n<img alt="x">\n```\n');
  assert.match(html, /<a href="https:\/\/developer.mozilla.org\/" rel="noopener noreferrer">MDN<\/a>/);
  assert.match(html, /&lt;img alt=&quot;x&quot;&gt;/);
});

Deno.test("word counts skip Markdown punctuation and count a link by its text", () => {
  assert.equal(countWords("## Two words\n\n| a | b |\n|---|---|\n- **bold** item [link text](/article3)"), 8);
  assert.equal(countWords(""), 0);
});
