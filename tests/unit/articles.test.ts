import assert from "node:assert/strict";
import { ARTICLE_COUNT, isAppPath } from "../../contract/routes.ts";
import { linksIn, renderMarkdown } from "../../web/src/features/articles/build/markdown.ts";
import { parseArticle, type ParsedArticle } from "../../web/src/features/articles/lib/article-meta.ts";
import { countWords, MAX_WPM, MIN_WPM } from "../../web/src/features/articles/lib/word-count.ts";

const CONTENT = new URL("../../web/src/features/articles/content/", import.meta.url);

/** Spec §3: category, difficulty and read time (minutes) by id. */
const SPEC: Record<number, [string, string, number]> = {
  1: ["Basics", "Beginner", 5],
  2: ["Formats", "Beginner", 4],
  3: ["Tutorials", "Intermediate", 6],
  4: ["Web Performance", "Intermediate", 8],
  5: ["Mobile", "Intermediate", 7],
  6: ["Automation", "Advanced", 9],
  7: ["Technical", "Advanced", 10],
  8: ["SEO", "Intermediate", 6],
  9: ["Technical", "Intermediate", 5],
  10: ["Formats", "Advanced", 8],
  11: ["Cloud", "Advanced", 9],
  12: ["Analytics", "Intermediate", 7],
  13: ["Hardware", "Advanced", 8],
  14: ["Social Media", "Intermediate", 6],
  15: ["Future Tech", "Advanced", 10],
  16: ["SEO & Performance", "Advanced", 8],
  17: ["Mobile SEO", "Intermediate", 7],
  18: ["Image Formats", "Intermediate", 6],
  19: ["Tools & Techniques", "Advanced", 10],
  20: ["SEO Strategy", "Beginner", 9],
};

/** Spec §2: the articles that hold tables, and how many at least. */
const TABLES: Record<number, number> = { 2: 1, 11: 1, 12: 1, 13: 2 };

const fileName = (id: number) => `article-${String(id).padStart(2, "0")}.md`;

function readArticle(id: number): ParsedArticle {
  const name = fileName(id);
  let source: string;
  try {
    source = Deno.readTextFileSync(new URL(name, CONTENT));
  } catch {
    throw new Error(`${name} is missing`);
  }
  return parseArticle(source, name);
}

Deno.test("the content folder holds exactly the 20 catalogue articles", () => {
  const names = [...Deno.readDirSync(CONTENT)].map((e) => e.name).filter((n) => n.endsWith(".md")).sort();
  const expected = Array.from({ length: ARTICLE_COUNT }, (_, i) => fileName(i + 1));
  assert.deepEqual(names, expected);
});

for (let id = 1; id <= ARTICLE_COUNT; id++) {
  const [category, difficulty, minutes] = SPEC[id]!;

  Deno.test(`article ${id} has the spec's category (${category}), difficulty and read time`, () => {
    const { meta } = readArticle(id);
    assert.equal(meta.id, id);
    assert.equal(meta.category, category);
    assert.equal(meta.difficulty, difficulty);
    assert.equal(meta.readTime, `${minutes} min`);
    assert.ok(meta.title.length > 10 && meta.title.length <= 110, `title length ${meta.title.length}`);
    assert.ok(
      meta.description.length >= 50 && meta.description.length <= 200,
      `description length ${meta.description.length}`,
    );
    assert.ok(meta.learn.length >= 3, "at least three What You'll Learn items");
    assert.ok(meta.cta.length > 0);
  });

  Deno.test(`article ${id}'s length agrees with its ${minutes}-minute read time (${MIN_WPM}-${MAX_WPM} wpm)`, () => {
    const { body, meta } = readArticle(id);
    const words = countWords(body);
    const wpm = words / meta.readMinutes;
    assert.ok(wpm >= MIN_WPM && wpm <= MAX_WPM, `${words} words in ${meta.readTime} is ${wpm.toFixed(0)} wpm`);
  });

  Deno.test(`article ${id}'s body starts at H2, has no raw HTML and links only to pages that exist`, () => {
    const { body } = readArticle(id);
    const prose = body.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
    assert.doesNotMatch(prose, /^# /m, "no H1 in the body: the page title is the H1");
    const html = renderMarkdown(body);
    assert.match(html, /<h2>/);
    // With raw HTML disabled, a tag in the source would show up escaped on the page.
    const outsideCode = html.replace(/<pre>[\s\S]*?<\/pre>|<code>[\s\S]*?<\/code>/g, "");
    assert.doesNotMatch(outsideCode, /&lt;\/?[a-z][a-z0-9]*(\s|&gt;)/i, "raw HTML in the Markdown");
    for (const href of linksIn(html)) {
      if (/^https?:\/\//.test(href) || href.startsWith("#")) continue;
      const path = href.split(/[?#]/)[0]!;
      assert.ok(isAppPath(path), `link to ${href} does not resolve`);
    }
  });

  if (TABLES[id]) {
    Deno.test(`article ${id} holds the table${TABLES[id]! > 1 ? "s" : ""} the spec names`, () => {
      const html = renderMarkdown(readArticle(id).body);
      const tables = html.match(/<table>/g)?.length ?? 0;
      assert.ok(tables >= TABLES[id]!, `${tables} table(s), expected at least ${TABLES[id]}`);
    });
  }
}
