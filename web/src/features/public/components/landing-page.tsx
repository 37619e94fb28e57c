import { type ChangeEvent, type DragEvent, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { PLANS } from "../../../../../contract/plans.ts";
import { paths } from "../../../../../contract/routes.ts";
import { Button } from "../../../components/ui/button.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { cn } from "../../../lib/cn.ts";
import { savePendingFiles } from "../../../lib/pending-files.ts";
import { usePage } from "../../../lib/use-page.ts";
import { useStoreStatements } from "../../../lib/store-kind.ts";
import type { StoreStatements } from "../../../../../contract/storage.ts";
import { useWindowDrop } from "../../../lib/use-window-drop.ts";
import { dragIsInvalid, limitLabel, selectFiles } from "../../../lib/validate-files.ts";
import { AdSlot } from "../../ads/index.ts";
import { PUBLIC_PAGE_META } from "../page-meta.ts";
import { PublicLayout } from "./public-layout.tsx";

const features = (images: StoreStatements) => [
  {
    title: "MozJPEG and jpegli",
    text:
      "Two JPEG encoders: MozJPEG, which Mozilla built for the web, with trellis quantisation and optimised Huffman tables, and Google's jpegli, with adaptive quantisation. At our default settings MozJPEG saved up to 91% on our public test corpus of 24 photos (on the “Storm” wallpaper, which had been saved at quality 98), and every result comes with a measured quality score.",
  },
  {
    title: "Private by design",
    text: images.short,
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

/** A visitor is on the free plan: its limits decide what can be kept for after sign-in. */
const VISITOR_LIMITS = { maxFileBytes: PLANS.free.maxFileBytes, maxFiles: PLANS.free.maxFilesPerUpload };

type DragState = "idle" | "valid" | "invalid";

/**
 * The visitor's home page (spec §2): the whole hero takes dropped or picked JPEGs, keeps them and
 * asks to sign up first; right after, the compressor uploads them (see use-pending-upload.ts).
 */
export function LandingPage() {
  const meta = PUBLIC_PAGE_META[paths.home];
  usePage(meta.title);
  const images = useStoreStatements();
  const input = useRef<HTMLInputElement>(null);
  const [location, navigate] = useLocation();
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [drag, setDrag] = useState<DragState>("idle");
  const depth = useRef(0);

  const take = async (picked: File[]) => {
    if (picked.length === 0 || saving) return;
    const { accepted, invalidType, tooLarge } = selectFiles(picked, 0, VISITOR_LIMITS);
    const limit = limitLabel(VISITOR_LIMITS.maxFileBytes);
    if (accepted.length === 0) {
      const description = `Please select JPEG images under ${limit}`;
      toast({ title: "No valid files", description, variant: "destructive" });
      setProblem(description);
      return;
    }
    // The spec's notices for what is left behind; they stay on screen while /auth opens.
    if (invalidType > 0) {
      toast({
        title: "Invalid file types detected",
        description: `${invalidType} file(s) are not JPEG images and will be skipped`,
        variant: "destructive",
      });
    } else if (tooLarge > 0) {
      toast({
        title: "Large files detected",
        description: `${tooLarge} file(s) exceed ${limit} limit and will be skipped`,
        variant: "destructive",
      });
    }
    setProblem(null);
    setSaving(true);
    await savePendingFiles(accepted);
    navigate(`${paths.auth}?returnUrl=${encodeURIComponent(location)}`);
  };
  useWindowDrop((files) => void take(files));

  const onPick = (e: ChangeEvent<HTMLInputElement>) => {
    const files = [...(e.target.files ?? [])];
    e.target.value = "";
    void take(files);
  };
  const judge = (e: DragEvent): DragState =>
    dragIsInvalid(e.dataTransfer.items, 0, VISITOR_LIMITS) ? "invalid" : "valid";
  const hero = {
    onDragEnter: (e: DragEvent) => {
      e.preventDefault();
      depth.current++;
      setDrag(judge(e));
    },
    onDragOver: (e: DragEvent) => {
      e.preventDefault();
      setDrag(judge(e));
    },
    onDragLeave: () => {
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDrag("idle");
    },
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      depth.current = 0;
      setDrag("idle");
      void take(Array.from(e.dataTransfer.files));
    },
  };

  return (
    <PublicLayout>
      <section
        aria-label="Compress your JPEGs"
        data-testid="landing-dropzone"
        data-drag={drag}
        {...hero}
        className={cn(
          "relative border-b border-slate-200 bg-gradient-to-b from-brand-50 to-white transition-colors",
          drag === "valid" && "from-brand-100 to-brand-50",
          drag === "invalid" && "from-red-50 to-red-50",
        )}
      >
        {drag !== "idle" && (
          <div
            aria-hidden="true"
            className={cn(
              "pointer-events-none absolute inset-3 z-10 flex items-center justify-center rounded-2xl border-4 border-dashed bg-white/70 text-xl font-semibold",
              drag === "invalid" ? "border-red-500 text-red-700" : "border-brand-600 text-brand-800",
            )}
          >
            {drag === "invalid" ? "Invalid file type or size" : "Drop your JPEGs to compress them"}
          </div>
        )}
        <div className="mx-auto max-w-4xl px-4 py-16 text-center md:py-24">
          <h1 className="text-4xl font-extrabold tracking-tight text-slate-900 md:text-5xl">
            Compress JPEG images without losing quality
          </h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-700">
            SqueezeJPEG shrinks your photos with MozJPEG or Google's jpegli, shows you a measured quality score for
            every file, and lets you compare the original and the result side by side before you download.
          </p>
          <div className="mt-8 flex flex-col items-center gap-3">
            <input
              ref={input}
              id="landing-files"
              type="file"
              accept="image/jpeg,image/jpg"
              multiple
              hidden
              tabIndex={-1}
              aria-label="Choose JPEG images"
              onChange={onPick}
            />
            <Button size="lg" onClick={() => input.current?.click()} disabled={saving}>
              {saving ? "Preparing..." : "Upload Images"}
            </Button>
            <p className="text-sm text-slate-600">
              or drop them here · JPEG only · up to 10 MB per file · 20 files at a time on the free plan
            </p>
            {problem && (
              <p role="alert" className="text-sm font-medium text-red-700" data-testid="landing-problem">{problem}</p>
            )}
          </div>
        </div>
      </section>

      <FeaturesSection images={images} />
      <LearnSection />

      <div className="mx-auto max-w-4xl px-4 py-12">
        <AdSlot placement="landing" />
      </div>
    </PublicLayout>
  );
}

/** Why SqueezeJPEG: the features, in the words the byte store allows (`images`). */
function FeaturesSection({ images }: { images: StoreStatements }) {
  return (
    <section aria-labelledby="features-title" className="mx-auto max-w-6xl px-4 py-16">
      <h2 id="features-title" className="text-center text-3xl font-bold">Why SqueezeJPEG</h2>
      <div className="mt-10 grid gap-6 md:grid-cols-3">
        {features(images).map((f) => (
          <div key={f.title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
            <h3 className="text-lg font-semibold">{f.title}</h3>
            <p className="mt-2 text-slate-700">{f.text}</p>
          </div>
        ))}
      </div>
    </section>
  );
}

/** The way into the articles. */
function LearnSection() {
  return (
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
  );
}
