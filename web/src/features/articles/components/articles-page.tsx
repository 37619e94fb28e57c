import { Link, useLocation, useSearch } from "wouter";
import { paths } from "../../../../../contract/routes.ts";
import { cn } from "../../../lib/cn.ts";
import { useHydrated } from "../../../lib/use-hydrated.ts";
import { usePage } from "../../../lib/use-page.ts";
import { articles, CATEGORY_FILTERS } from "../catalogue.ts";
import { ArticlesFooter, ArticlesHeader } from "./articles-chrome.tsx";
import { CategoryBadge, DifficultyBadge } from "./badges.tsx";

const NAV = [
  { href: paths.home, label: "Home" },
  { href: paths.about, label: "About" },
  { href: paths.contact, label: "Contact" },
];

const POPULAR = [
  {
    title: "Basics",
    category: "Basics",
    text:
      "Start here: what compression removes, what quality numbers mean, and how to shrink files without visible loss.",
  },
  {
    title: "Web Performance",
    category: "Web Performance",
    text: "How image weight drives page speed and Core Web Vitals, and the fixes that move the numbers.",
  },
  {
    title: "Automation",
    category: "Automation",
    text: "Build steps, CI checks and upload hooks that compress every image once, the same way.",
  },
  {
    title: "Advanced",
    category: null,
    text: "The science of DCT and quantisation, format internals, hardware and where compression is heading.",
  },
];

export const categoryHref = (category: string) =>
  category === "All" ? paths.articles : `${paths.articles}?category=${encodeURIComponent(category)}`;

/**
 * The category in `?category=`, or "All". While hydrating it is "All", like the prerendered
 * page, so the client's first render matches; the URL's filter applies right after.
 */
function useCategory(): string {
  const hydrated = useHydrated();
  const search = useSearch();
  if (!hydrated) return "All";
  const wanted = new URLSearchParams(search).get("category");
  return wanted && (CATEGORY_FILTERS as readonly string[]).includes(wanted) ? wanted : "All";
}

/** Spec §2 /articles: the library, with category filters that work and live in the URL. */
export function ArticlesPage() {
  usePage("Image Compression Articles | SqueezeJPEG");
  const category = useCategory();
  const [, navigate] = useLocation();
  const shown = category === "All" ? articles : articles.filter((a) => a.category === category);

  return (
    <div className="flex min-h-screen flex-col">
      <ArticlesHeader back={paths.home} links={NAV} />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-12">
        <h1 className="text-4xl font-extrabold tracking-tight">Image Compression Articles</h1>
        <p className="mt-3 max-w-3xl text-lg text-slate-700">
          Practical guides to smaller, sharper images: how JPEG compression works, which format to use, how images
          affect page speed and search rankings, and how to automate it all.
        </p>

        {
          /* Phones: a select (19 chips would fill the first screen, or hide most of themselves in a sideways
            row; issue 24, item 6); wider, the filters are links that wrap. */
        }
        <div className="mt-8 sm:hidden">
          <label htmlFor="article-category" className="text-sm font-medium text-slate-700">Category</label>
          <select
            id="article-category"
            data-testid="article-category-select"
            className="mt-1 h-11 w-full rounded-md border border-slate-300 bg-white px-3 text-base focus-visible:outline-2 focus-visible:outline-brand-600"
            value={category}
            onChange={(e) => navigate(categoryHref(e.target.value))}
          >
            {CATEGORY_FILTERS.map((c) => <option key={c} value={c}>{c === "All" ? "All categories" : c}</option>)}
          </select>
        </div>
        <nav aria-label="Categories" data-testid="article-filters" className="mt-8 hidden flex-wrap gap-2 sm:flex">
          {CATEGORY_FILTERS.map((c) => (
            <Link
              key={c}
              href={categoryHref(c)}
              aria-current={c === category ? "true" : undefined}
              className={cn(
                "whitespace-nowrap rounded-full border px-3 py-1.5 text-sm font-medium transition-colors",
                c === category
                  ? "border-brand-600 bg-brand-600 text-white"
                  : "border-slate-300 bg-white text-slate-700 hover:border-brand-600 hover:text-brand-700",
              )}
            >
              {c}
            </Link>
          ))}
        </nav>

        <p className="sr-only" role="status" aria-live="polite">
          {category === "All" ? `Showing all ${shown.length} articles` : `Showing ${shown.length} ${category} articles`}
        </p>

        <ul className="mt-8 grid gap-6 md:grid-cols-2 lg:grid-cols-3" data-testid="article-grid">
          {shown.map((a) => (
            <li
              key={a.id}
              className="flex flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
              data-testid="article-card"
            >
              <div className="flex flex-wrap items-center gap-2">
                <DifficultyBadge level={a.difficulty} />
                <CategoryBadge category={a.category} />
              </div>
              <h2 className="mt-4 text-lg font-semibold leading-snug">{a.title}</h2>
              <p className="mt-2 flex-1 text-slate-700">{a.description}</p>
              <div className="mt-5 flex items-center justify-between text-sm">
                <span className="text-slate-600">{a.readTime} read</span>
                <Link href={paths.article(a.id)} className="font-semibold text-brand-700 hover:underline">
                  Read Article<span className="sr-only">: {a.title}</span>
                </Link>
              </div>
            </li>
          ))}
        </ul>
        {shown.length === 0 && <p className="mt-8 text-slate-700">No articles in this category yet.</p>}

        <section aria-labelledby="popular-title" className="mt-16">
          <h2 id="popular-title" className="text-2xl font-bold">Popular Categories</h2>
          <div className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {POPULAR.map((p) => (
              <div key={p.title} className="rounded-xl border border-slate-200 bg-white p-5">
                <h3 className="font-semibold">
                  {p.category
                    ? <Link href={categoryHref(p.category)} className="text-brand-700 hover:underline">{p.title}</Link>
                    : p.title}
                </h3>
                <p className="mt-2 text-sm text-slate-700">{p.text}</p>
              </div>
            ))}
          </div>
        </section>
      </main>
      <ArticlesFooter />
    </div>
  );
}
