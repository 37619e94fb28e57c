import { paths } from "../../../../../contract/routes.ts";
import { Button } from "../../../components/ui/button.tsx";
import { usePage } from "../../../lib/use-page.ts";
import { useStoreStatements } from "../../../lib/store-kind.ts";
import type { StoreStatements } from "../../../../../contract/storage.ts";
import { PUBLIC_PAGE_META } from "../page-meta.ts";
import { ContactForm } from "./contact-form.tsx";
import { PublicLayout } from "./public-layout.tsx";

const faq = (images: StoreStatements) => [
  {
    q: "Are my images secure?",
    a: `Yes. Images travel to our server over the connection you opened. ${images.short} Only your account can preview or download them.`,
  },
  {
    q: "What file formats do you support?",
    a: "JPEG images (.jpg and .jpeg) only for now. Support for uploading PNG and WebP is planned. You can already choose WebP as the output format for a JPEG.",
  },
  {
    q: "What is the maximum file size?",
    a: "10 MB per file and 20 files per upload on the free plan. Premium accepts files up to 25 MB and batches of up to 100 files.",
  },
];

function SideCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 className="font-semibold">{title}</h2>
      <div className="mt-1 text-sm text-slate-700">{children}</div>
    </div>
  );
}

/** Spec §2: side cards, the message form (really delivered), the FAQ. */
export function ContactPage() {
  const meta = PUBLIC_PAGE_META[paths.contact];
  usePage(meta.title);
  const images = useStoreStatements();
  return (
    <PublicLayout>
      <div className="mx-auto max-w-6xl px-4 py-12 md:py-16">
        <h1 className="text-4xl font-extrabold tracking-tight">Contact Us</h1>
        <p className="mt-3 max-w-2xl text-lg text-slate-700">
          Questions about compression, your account or Premium? Send us a message and a person will answer.
        </p>

        <div className="mt-10 grid gap-8 lg:grid-cols-3">
          <div className="space-y-4">
            <SideCard title="Email Support">
              <p>Write to us with the form; we reply to the email address you give.</p>
            </SideCard>
            <SideCard title="Response Time">
              <p>Within 24 hours on business days.</p>
            </SideCard>
            <SideCard title="Live Chat">
              <p>Monday-Friday, 9 AM-6 PM EST</p>
              <Button type="button" variant="secondary" size="sm" className="mt-3">Start Chat</Button>
            </SideCard>
            <SideCard title="Location">
              <p>United States</p>
            </SideCard>
          </div>

          <section
            aria-labelledby="form-title"
            className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm lg:col-span-2"
          >
            <h2 id="form-title" className="text-2xl font-bold">Send us a message</h2>
            <div className="mt-6">
              <ContactForm />
            </div>
          </section>
        </div>

        <section aria-labelledby="faq-title" className="mt-16">
          <h2 id="faq-title" className="text-2xl font-bold">Frequently Asked Questions</h2>
          <div className="mt-6 space-y-3">
            {faq(images).map((item) => (
              <details key={item.q} className="rounded-lg border border-slate-200 bg-white p-4">
                <summary className="cursor-pointer font-semibold">{item.q}</summary>
                <p className="mt-2 text-slate-700">{item.a}</p>
              </details>
            ))}
          </div>
        </section>
      </div>
    </PublicLayout>
  );
}
