import { Link } from "wouter";
import { paths } from "../../../../../contract/routes.ts";
import { usePage } from "../../../lib/use-page.ts";
import { useHydrated } from "../../../lib/use-hydrated.ts";
import { useStoreStatements } from "../../../lib/store-kind.ts";
import { PUBLIC_PAGE_META } from "../page-meta.ts";
import { PublicLayout } from "./public-layout.tsx";

function formatDay(date: Date): string {
  return date.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
}

declare const __BUILD_DAY__: string | undefined;

/** The day the page was prerendered (vite.config.ts), at noon UTC so every time zone reads the same day. */
const buildDay = () => typeof __BUILD_DAY__ === "string" ? new Date(`${__BUILD_DAY__}T12:00:00Z`) : new Date();

/**
 * Spec §2: the last-updated date is today's date. Prerendered with the build date, hydrated with that
 * same date (a server built yesterday must not mismatch today), then re-rendered with the visitor's
 * today (the key swap replaces the prerendered text instead of patching it).
 */
function LastUpdated() {
  const hydrated = useHydrated();
  const now = hydrated ? new Date() : buildDay();
  return (
    <p className="mt-3 text-sm text-slate-600">
      Last updated:{" "}
      <time key={hydrated ? "client" : "server"} dateTime={now.toISOString().slice(0, 10)} data-testid="last-updated">
        {formatDay(now)}
      </time>
    </p>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-10">
      <h2 id={id} className="text-2xl font-bold">{title}</h2>
      <div className="mt-3 space-y-3 text-slate-700">{children}</div>
    </section>
  );
}

/** Every statement here must stay true of the server: update it with the code (images: contract/storage.ts). */
export function PrivacyPage() {
  const meta = PUBLIC_PAGE_META[paths.privacy];
  usePage(meta.title);
  const images = useStoreStatements();
  return (
    <PublicLayout>
      <article className="mx-auto max-w-3xl px-4 py-12 md:py-16">
        <h1 className="text-4xl font-extrabold tracking-tight">Privacy Policy</h1>
        <LastUpdated />
        <p className="mt-6 text-lg text-slate-700">
          SqueezeJPEG compresses your images and keeps as little about you as it can. This page says what we collect,
          why, how long we keep it and how you can have it deleted.
        </p>

        <Section id="images" title="Your images">
          <p>
            <strong>{images.privacyLead}</strong> {images.privacy}
          </p>
          <p>
            While an image is held, only your signed-in account can preview or download it. Unless you switch off "strip
            metadata", a JPEG or AVIF result leaves out EXIF data such as GPS location and camera details (it keeps the
            colour profile; an AVIF result never carries XMP, IPTC or comments); a WebP result carries no metadata at
            all, colour profile included.
          </p>
          <p>
            To show your processing queue and count your daily usage, we keep a small record of each job without the
            image: its file name, sizes before and after, settings, status, dimensions and quality scores. It stays
            until you delete the job; deleting a job in the compressor deletes this record.
          </p>
          <p>
            <strong>What stays after you delete a job:</strong>{" "}
            each upload is also recorded as a batch: its name (for an upload of one image, that image's file name), the
            number of files, their total size before compression, the settings and its status. Deleting the last job of
            a batch deletes the batch record too; while any of its jobs remain, it stays. Your daily compression counts
            (how many, not which images) stay until your account is deleted; to have them removed sooner, send us a
            message (see Your rights).
          </p>
        </Section>

        <Section id="collected" title="Information we collect">
          <ul className="list-disc space-y-2 pl-6">
            <li>
              <strong>Account details:</strong>{" "}
              your username, and your email address and first and last name if you give them.
            </li>
            <li>
              <strong>Password:</strong>{" "}
              never stored as written. We keep only a one-way hash made with argon2id, so nobody, including us, can read
              it back.
            </li>
            <li>
              <strong>Usage analytics:</strong>{" "}
              how many compressions you run each day (for the free plan's daily limit) and the job and batch records
              described above. We do not use third-party analytics. The only third-party script is the ad network's,
              described under Sharing.
            </li>
            <li>
              <strong>IP address:</strong>{" "}
              used to limit repeated sign-in attempts and new accounts, and stored with messages you send through the
              contact form, to limit spam. For the limits we keep only a SHA-256 hash of the address (with the username
              for sign-ins), never the address as written: failed sign-ins and new accounts for about an hour, and each
              address you signed in from for 30 days after your last sign-in from it, so that failures from elsewhere
              never lock you out.
            </li>
            <li>
              <strong>Device and browser:</strong>{" "}
              your browser tells our server its type and operating system (the user agent) with each request. We do not
              store it or tie it to your account.
            </li>
            <li>
              <strong>Contact messages:</strong> the name, email, subject and message you send us.
            </li>
            <li>
              <strong>Subscription:</strong>{" "}
              if you buy Premium, your Stripe customer and subscription identifiers, plan status and renewal date.
            </li>
          </ul>
          <p>
            We set one cookie ourselves, the session cookie that keeps you signed in. It is HttpOnly (scripts cannot
            read it), ends after 14 days without a visit and at the latest 30 days after you sign in, and is deleted
            when you sign out. Your cookie-banner choice is kept in your browser's local storage. The ad network may set
            its own cookies, as described under Sharing.
          </p>
        </Section>

        <Section id="uses" title="How we use it">
          <ul className="list-disc space-y-2 pl-6">
            <li>To run the service: sign you in, compress your images and show your results.</li>
            <li>To apply your plan: the free plan's daily limit and Premium's higher limits.</li>
            <li>To answer the messages you send us.</li>
            <li>To protect the service against abuse: rate limits on sign-in and contact messages.</li>
          </ul>
          <p>We never look at your images, use them to train models, or give your account details to advertisers.</p>
        </Section>

        <Section id="sharing" title="Sharing">
          <p>
            <strong>We do not sell your data.</strong>{" "}
            We share only what a task needs with the services that perform it:
          </p>
          <ul className="list-disc space-y-2 pl-6">
            <li>
              <strong>Stripe</strong>{" "}
              processes Premium payments. Card details go directly to Stripe and never reach our servers.
            </li>
            <li>
              <strong>Advertising:</strong>{" "}
              visitors and free accounts see ads; Premium accounts see none. When the ad network (Google AdSense) is
              switched on, pages with ad slots load Google's ad script for visitors and free accounts whatever you
              choose in the cookie banner, and before you choose. The script sends Google your IP address and browser
              details, and Google may set or read its own cookies. Until you press Accept, we ask Google for
              non-personalised ads only; Google states that non-personalised ads still use cookies for frequency
              capping, aggregated reporting and fighting fraud. Declining keeps it that way; Accept allows personalised
              ads. When the ad network is off, ad slots show our own house ads, which load nothing from other sites.
            </li>
            <li>Authorities, only when the law requires it.</li>
          </ul>
        </Section>

        <Section id="rights" title="Your rights">
          <p>
            You can see the information in your account at any time and delete any job, with its images, from the
            compressor. To get a copy of your data, correct it, or delete your account and everything tied to it,{" "}
            <Link href={paths.contact} className="font-medium text-brand-700 underline">send us a message</Link>{" "}
            from the email address on your account; we act on it within 30 days.
          </p>
        </Section>

        <Section id="security" title="Security">
          <p>
            Passwords are hashed with argon2id. Sessions use a random token of which we store only a SHA-256 hash, in an
            HttpOnly, SameSite cookie that is marked Secure when the site is served over HTTPS. Requests that change
            data are refused when they come from another site. {images.security}
          </p>
        </Section>

        <Section id="contact" title="Contact">
          <p>
            Questions about this policy? Use our{" "}
            <Link href={paths.contact} className="font-medium text-brand-700 underline">contact form</Link>{" "}
            and we will reply within 24 hours on business days.
          </p>
        </Section>
      </article>
    </PublicLayout>
  );
}
