/**
 * Every measured figure an article quotes comes from bench/articles/figures.tsv, the table that
 * `deno task bench:articles` writes. An article lists the keys it quotes in its front matter:
 *
 *   figures:
 *     - ladder.q80.median_kb
 *
 * and quotes each row's `text` verbatim. A listed key missing from the table, or a quoted text that no
 * longer matches the table (the figure changed, or the article was edited by hand), fails here.
 */
import assert from "node:assert/strict";
import { ARTICLE_COUNT } from "../../contract/routes.ts";
import { parseFrontMatter } from "../../web/src/features/articles/lib/front-matter.ts";

const CONTENT = new URL("../../web/src/features/articles/content/", import.meta.url);
const TABLE = new URL("../../bench/articles/figures.tsv", import.meta.url);

/** Words that say a number was measured by us; an article using them must cite the table. */
const MEASURED = /\b(we measured|we ran|our (own )?(test|tests|measurements|runs|corpus|figures))\b/i;

function readTable(): Map<string, string> {
  const rows = Deno.readTextFileSync(TABLE).split("\n").filter((line) => line && !line.startsWith("#"));
  const [header, ...body] = rows;
  assert.equal(header, "key\ttext\tvalue\tnote", "figures.tsv header");
  const table = new Map<string, string>();
  for (const line of body) {
    const [key, text] = line.split("\t");
    assert.ok(key && text, `malformed row: ${line}`);
    assert.ok(!table.has(key), `duplicate key ${key}`);
    table.set(key, text);
  }
  return table;
}

function readArticle(id: number) {
  const name = `article-${String(id).padStart(2, "0")}.md`;
  const { data, body } = parseFrontMatter(Deno.readTextFileSync(new URL(name, CONTENT)), name);
  const figures = data.figures ?? [];
  assert.ok(Array.isArray(figures), `${name}: "figures" must be a list of keys`);
  return { name, figures, body };
}

Deno.test("figures.tsv has a row per key and a text per row", () => {
  assert.ok(readTable().size > 0);
});

for (let id = 1; id <= ARTICLE_COUNT; id++) {
  Deno.test(`article ${id} quotes its measured figures exactly as bench/articles/figures.tsv has them`, () => {
    const table = readTable();
    const { name, figures, body } = readArticle(id);
    const prose = body.replace(/\s+/g, " ");
    for (const key of figures) {
      const text = table.get(key);
      assert.ok(text !== undefined, `${name} cites "${key}", which bench/articles/figures.tsv does not contain`);
      assert.ok(
        prose.includes(text.replace(/\s+/g, " ")),
        `${name} cites "${key}" but does not quote the table's "${text}"`,
      );
    }
    if (MEASURED.test(body)) {
      assert.ok(figures.length > 0, `${name} reports its own measurements but lists no figures from the table`);
    }
  });
}

Deno.test("the landing page's savings claim is the largest saving measured on the corpus, with its photo", () => {
  const table = readTable();
  const landing = Deno.readTextFileSync(
    new URL("../../web/src/features/public/components/landing-page.tsx", import.meta.url),
  ).replace(/\s+/g, " ");
  for (const key of ["engine.largest_saving_pct", "engine.largest_saving_photo"]) {
    const text = table.get(key);
    assert.ok(text !== undefined, `bench/articles/figures.tsv has no ${key}`);
    assert.ok(landing.includes(text), `the landing page does not quote ${key} ("${text}")`);
  }
  assert.doesNotMatch(landing, /up to 90%/i, "the spec's unmeasured marketing figure");
});

Deno.test("every article ends with the same paragraph about the product", () => {
  const last = (id: number) => readArticle(id).body.trim().split(/\n\s*\n/).at(-1)!;
  const first = last(1);
  assert.match(first, /SqueezeJPEG/);
  for (let id = 2; id <= ARTICLE_COUNT; id++) assert.equal(last(id), first, `article ${id}'s closing paragraph`);
});
