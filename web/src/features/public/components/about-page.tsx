import { Link } from "wouter";
import { paths } from "../../../../../contract/routes.ts";
import { Button } from "../../../components/ui/button.tsx";
import { usePage } from "../../../lib/use-page.ts";
import { useStoreStatements } from "../../../lib/store-kind.ts";
import type { StoreStatements } from "../../../../../contract/storage.ts";
import { SCORE_BANDS, SCORE_NOTE_ID, SCORE_TONES } from "../../../../../contract/score-words.ts";
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

        <ScoreScale />

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

/** The "what the score means" note every score word links to (contract/score-words.ts, ADR 026). */
function ScoreScale() {
  return (
    <section id={SCORE_NOTE_ID} aria-labelledby="scores-title" className="mt-12 scroll-mt-20">
      <h2 id="scores-title" className="text-2xl font-bold">What the quality score means</h2>
      <p className="mt-3 text-slate-700">
        Each result is compared with its original by SSIMULACRA 2, a published perceptual metric: 100 means identical,
        and the score drops as a person would notice more difference. The words follow the metric's own scale.
      </p>
      <table className="mt-4 w-full max-w-xl text-left text-sm" data-testid="score-scale">
        <thead>
          <tr className="border-b border-slate-200 text-slate-500">
            <th scope="col" className="py-1.5 pr-4 font-medium">Score</th>
            <th scope="col" className="py-1.5 pr-4 font-medium">Word</th>
            <th scope="col" className="py-1.5 font-medium">What you would see</th>
          </tr>
        </thead>
        <tbody>
          {SCORE_BANDS.map((b, i) => (
            <tr key={b.word} className="border-b border-slate-100">
              <td className="py-1.5 pr-4 tabular-nums">
                {i === SCORE_BANDS.length - 1 ? `below ${SCORE_BANDS[i - 1]!.min}` : `${b.min} and above`}
              </td>
              <th scope="row" className="py-1.5 pr-4 font-semibold">{b.word}</th>
              <td className="py-1.5 text-slate-700">{b.meaning}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-3 text-slate-700">
        Scores show green from {SCORE_TONES[0].min} (what Auto aims for), amber from{" "}
        {SCORE_TONES[1].min}, and red below. Sharpness, colour accuracy and artifacts use the same scale: each is the
        score the photo would get if all its faults were of that kind, so the lowest of them tells you what the overall
        score is mostly about.
      </p>
    </section>
  );
}
