import { Suspense, use } from "react";
import { Link } from "wouter";
import { paths } from "../../../../../contract/routes.ts";
import { Button } from "../../../components/ui/button.tsx";
import { usePage } from "../../../lib/use-page.ts";
import { AdSlot } from "../../ads/index.ts";
import { articles, findArticle, loadArticle, loadedArticle } from "../catalogue.ts";
import type { ArticleMeta } from "../lib/article-meta.ts";
import { articleTitle } from "../page-meta.ts";
import { ArticlesFooter, ArticlesHeader } from "./articles-chrome.tsx";
import { CategoryBadge, DifficultyBadge } from "./badges.tsx";
import "./article-body.css";

/** Spec §2: nav links to / Home, /article1 Articles, /about, /contact. */
const NAV = [
  { href: paths.home, label: "Home" },
  { href: paths.article(1), label: "Articles" },
  { href: paths.about, label: "About" },
  { href: paths.contact, label: "Contact" },
];

/** The body: prerendered, then hydrated once its chunk has loaded (the server HTML stays meanwhile). */
function ArticleBody({ id }: { id: number }) {
  const { html } = loadedArticle(id) ?? use(loadArticle(id));
  // Our own Markdown, rendered at build time with raw HTML escaped (build/markdown.ts).
  return <div className="article-body" dangerouslySetInnerHTML={{ __html: html }} />;
}

function LearnCard({ items }: { items: string[] }) {
  return (
    <section aria-labelledby="learn-title" className="mt-8 rounded-xl border border-brand-100 bg-brand-50 p-6">
      <h2 id="learn-title" className="text-lg font-semibold">What You'll Learn</h2>
      <ul className="mt-3 space-y-2">
        {items.map((item) => (
          <li key={item} className="flex gap-2 text-slate-800">
            <span aria-hidden="true" className="font-bold text-brand-700">✓</span>
            <span>{item}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function NextArticle({ current }: { current: ArticleMeta }) {
  const next = articles.find((a) => a.id > current.id) ?? articles[0];
  if (!next || next.id === current.id) return null;
  return (
    <p className="mt-10 border-t border-slate-200 pt-6 text-slate-700">
      Next article:{" "}
      <Link href={paths.article(next.id)} className="font-semibold text-brand-700 underline">{next.title}</Link>
    </p>
  );
}

function Article({ meta }: { meta: ArticleMeta }) {
  usePage(articleTitle(meta));
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-10 md:py-14">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <CategoryBadge category={meta.category} />
        <span className="text-slate-600">{meta.readTime} read</span>
        <DifficultyBadge level={meta.difficulty} />
      </div>
      <h1 className="mt-4 text-3xl font-extrabold leading-tight tracking-tight md:text-4xl">{meta.title}</h1>
      <p className="mt-4 text-lg text-slate-700">{meta.description}</p>
      <LearnCard items={meta.learn} />
      <Suspense fallback={<div className="min-h-[60vh]" aria-busy="true" />}>
        <ArticleBody id={meta.id} />
      </Suspense>
      <div className="my-10">
        <AdSlot placement="article" />
      </div>
      <div className="rounded-xl bg-slate-900 p-8 text-center text-white">
        <p className="text-xl font-semibold">Ready to make your images smaller?</p>
        <p className="mt-2 text-slate-300">
          Compress your JPEGs with MozJPEG or jpegli and check the quality before you download.
        </p>
        <Button asChild size="lg" className="mt-6">
          <Link href={paths.home}>{meta.cta}</Link>
        </Button>
      </div>
      <NextArticle current={meta} />
    </article>
  );
}

/** /article1 to /article20 (spec §2); an id without a file renders nothing here (the router 404s it). */
export function ArticlePage({ id }: { id: number }) {
  const meta = findArticle(id);
  return (
    <div className="flex min-h-screen flex-col">
      <ArticlesHeader back={paths.articles} links={NAV} />
      <main id="main" className="flex-1">
        {meta
          ? <Article meta={meta} />
          : <p className="mx-auto max-w-3xl px-4 py-16">This article is not available yet.</p>}
      </main>
      <ArticlesFooter />
    </div>
  );
}
