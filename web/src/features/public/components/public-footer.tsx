import { Link } from "wouter";
import { paths } from "../../../../../contract/routes.ts";

const LINKS = [
  { href: paths.about, label: "About" },
  { href: paths.privacy, label: "Privacy" },
  { href: paths.contact, label: "Contact" },
  { href: paths.articles, label: "Articles" },
  { href: paths.developers, label: "Developers" },
];

/** Spec §2: footer links /about, /privacy, /contact, /articles (and /developers, issue 23); © 2025. */
export function PublicFooter() {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-4 px-4 py-8 text-sm text-slate-600 md:flex-row">
        <p>© 2025 SqueezeJPEG. All rights reserved.</p>
        <nav aria-label="Footer" className="flex flex-wrap justify-center gap-x-6 gap-y-2">
          {LINKS.map((l) => (
            <Link key={l.href} href={l.href} className="underline-offset-4 hover:underline">{l.label}</Link>
          ))}
        </nav>
      </div>
    </footer>
  );
}
