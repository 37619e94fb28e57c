import { Link } from "wouter";
import { paths } from "../../../../../contract/routes.ts";
import { Button } from "../../../components/ui/button.tsx";
import { usePage } from "../../../lib/use-page.ts";
import { useStoreStatements } from "../../../lib/store-kind.ts";
import type { StoreStatements } from "../../../../../contract/storage.ts";
import { PUBLIC_PAGE_META } from "../page-meta.ts";
import { PublicLayout } from "./public-layout.tsx";

const values = (images: StoreStatements) => [
  {
    title: "Quality you can check",
    text:
      "A smaller file is only a win if the photo still looks right. Every compressed image gets a measured similarity score against its original, and the Compare view lets you judge with your own eyes.",
  },
  {
    title: "Privacy by default",
    text:
      `Your photos are not our business. ${images.short} Results leave out GPS and camera metadata unless you ask to keep it.`,
  },
  {
    title: "Honest limits",
    text:
      "The free plan does 10 compressions a day with files up to 10 MB. Premium costs $9.99 a month and lifts those limits. No hidden watermarks, no surprise charges.",
  },
];

/** Spec §2: mission, three value cards, technology, Get in Touch. */
export function AboutPage() {
  const meta = PUBLIC_PAGE_META[paths.about];
  usePage(meta.title);
  const images = useStoreStatements();
  return (
    <PublicLayout>
      <div className="mx-auto max-w-4xl px-4 py-12 md:py-16">
        <h1 className="text-4xl font-extrabold tracking-tight">About SqueezeJPEG</h1>

        <section aria-labelledby="mission" className="mt-8">
          <h2 id="mission" className="text-2xl font-bold">Our mission</h2>
          <p className="mt-3 text-lg text-slate-700">
            Heavy images are the most common reason a web page feels slow. We want anyone, from a photographer sending a
            portfolio to a developer shipping a storefront, to get small, sharp JPEGs in seconds, without installing
            software or learning encoder flags.
          </p>
        </section>

        <section aria-labelledby="values" className="mt-12">
          <h2 id="values" className="text-2xl font-bold">What we value</h2>
          <div className="mt-6 grid gap-6 md:grid-cols-3">
            {values(images).map((v) => (
              <div key={v.title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
                <h3 className="text-lg font-semibold">{v.title}</h3>
                <p className="mt-2 text-slate-700">{v.text}</p>
              </div>
            ))}
          </div>
        </section>

        <section aria-labelledby="technology" className="mt-12">
          <h2 id="technology" className="text-2xl font-bold">The technology</h2>
          <div className="mt-6 grid gap-6 md:grid-cols-2">
            <div>
              <h3 className="text-lg font-semibold">MozJPEG and jpegli</h3>
              <p className="mt-2 text-slate-700">
                We encode with one of two JPEG encoders, both compiled to WebAssembly and run in a pool of workers on
                our server: MozJPEG, Mozilla's encoder and our default, and jpegli, Google's newer encoder from the JPEG
                XL project. Both keep files fully compatible with every browser and viewer. MozJPEG uses trellis
                quantisation, optimised Huffman tables and tuned quantisation tables to spend fewer bytes on detail your
                eye does not see; jpegli adapts its quantisation to the detail in each part of the photo and encodes
                several times faster. You choose the encoder in the settings.
              </p>
            </div>
            <div>
              <h3 className="text-lg font-semibold">Smart optimisation</h3>
              <p className="mt-2 text-slate-700">
                Orientation from the camera is applied to the pixels so nothing arrives sideways, the colour profile is
                kept so colours do not shift, and a result that would be bigger than your original is never returned.
                Premium users can ask for a target file size or a target quality, and we search for the smallest file
                that meets it; a quality target tries both encoders and keeps the smaller file.
              </p>
            </div>
          </div>
        </section>

        <section aria-labelledby="talk" className="mt-12 rounded-xl bg-brand-50 p-8 text-center">
          <h2 id="talk" className="text-2xl font-bold">Questions or ideas?</h2>
          <p className="mt-2 text-slate-700">We read every message and reply within 24 hours on business days.</p>
          <Button asChild size="lg" className="mt-6">
            <Link href={paths.contact}>Get in Touch</Link>
          </Button>
        </section>
      </div>
    </PublicLayout>
  );
}
