import { type ChangeEvent, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { paths } from "../../../../../contract/routes.ts";
import { Button } from "../../../components/ui/button.tsx";
import { usePage } from "../../../lib/use-page.ts";
import { AdSlot } from "../../ads/components/ad-slot.tsx";
import { PUBLIC_PAGE_META } from "../page-meta.ts";
import { savePendingFiles } from "../pending-files.ts";
import { PublicLayout } from "./public-layout.tsx";

const FEATURES = [
  {
    title: "MozJPEG compression",
    text:
      "The same encoder big image CDNs use: trellis quantisation and optimised Huffman tables make files smaller at the same visual quality. Every result is checked with a measured quality score.",
  },
  {
    title: "Private by design",
    text:
      "Images are processed in server memory, never written to disk, and deleted automatically an hour after compression, or as soon as you delete the job.",
  },
  {
    title: "Free to start",
    text:
      "10 compressions a day and files up to 10 MB on the free plan. Premium removes the daily limit, takes 25 MB files and batches of 100, and skips the ads.",
  },
];

const LEARN = [
  {
    title: "Compression basics",
    text: "What quality 80 really means, how chroma subsampling works, and why re-saving a JPEG costs detail.",
  },
  {
    title: "Faster pages",
    text: "How image weight drives Largest Contentful Paint, and the fixes that pass Core Web Vitals.",
  },
  {
    title: "Formats and SEO",
    text: "When WebP or AVIF beat JPEG, and how alt text and file names help images rank.",
  },
];

const isJpeg = (f: File) => /jpe?g/i.test(f.type) || /\.jpe?g$/i.test(f.name);

/** The visitor's home page (spec §2): picking files keeps them and asks to sign in first. */
export function LandingPage() {
  const meta = PUBLIC_PAGE_META[paths.home];
  usePage(meta.title);
  const input = useRef<HTMLInputElement>(null);
  const [location, navigate] = useLocation();
  const [saving, setSaving] = useState(false);

  const onPick = async (e: ChangeEvent<HTMLInputElement>) => {
    const files = [...(e.target.files ?? [])].filter(isJpeg);
    e.target.value = "";
    if (files.length === 0) return;
    setSaving(true);
    await savePendingFiles(files);
    navigate(`${paths.auth}?returnUrl=${encodeURIComponent(location)}`);
  };

  return (
    <PublicLayout>
      <section className="border-b border-slate-200 bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto max-w-4xl px-4 py-16 text-center md:py-24">
          <h1 className="text-4xl font-extrabold tracking-tight text-slate-900 md:text-5xl">
            Compress JPEG images without losing quality
          </h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-700">
            SqueezeJPEG shrinks your photos with MozJPEG, shows you a measured quality score for every file, and lets
            you compare the original and the result side by side before you download.
          </p>
          <div className="mt-8 flex flex-col items-center gap-3">
            <input
              ref={input}
              id="landing-files"
              type="file"
              accept="image/jpeg,image/jpg"
              multiple
              className="sr-only"
              tabIndex={-1}
              aria-label="Choose JPEG images"
              onChange={onPick}
            />
            <Button size="lg" onClick={() => input.current?.click()} disabled={saving}>
              {saving ? "Preparing..." : "Upload Images"}
            </Button>
            <p className="text-sm text-slate-600">
              JPEG only · up to 10 MB per file · 20 files at a time on the free plan
            </p>
          </div>
        </div>
      </section>

      <section aria-labelledby="features-title" className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="features-title" className="text-center text-3xl font-bold">Why SqueezeJPEG</h2>
        <div className="mt-10 grid gap-6 md:grid-cols-3">
          {FEATURES.map((f) => (
            <div key={f.title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
              <h3 className="text-lg font-semibold">{f.title}</h3>
              <p className="mt-2 text-slate-700">{f.text}</p>
            </div>
          ))}
        </div>
      </section>

      <section aria-labelledby="learn-title" className="bg-white py-16">
        <div className="mx-auto max-w-6xl px-4">
          <h2 id="learn-title" className="text-center text-3xl font-bold">Learn Image Compression</h2>
          <p className="mx-auto mt-3 max-w-2xl text-center text-slate-700">
            Twenty practical guides for photographers and developers, from the basics to the science behind JPEG.
          </p>
          <div className="mt-10 grid gap-6 md:grid-cols-3">
            {LEARN.map((card) => (
              <Link
                key={card.title}
                href={paths.articles}
                className="group rounded-xl border border-slate-200 bg-slate-50 p-6 transition-colors hover:border-brand-600"
              >
                <h3 className="text-lg font-semibold group-hover:text-brand-700">{card.title}</h3>
                <p className="mt-2 text-slate-700">{card.text}</p>
                <span className="mt-4 inline-block font-medium text-brand-700">Browse articles →</span>
              </Link>
            ))}
          </div>
        </div>
      </section>

      <div className="mx-auto max-w-4xl px-4 py-12">
        <AdSlot placement="landing" />
      </div>
    </PublicLayout>
  );
}
