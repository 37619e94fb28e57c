import { Link } from "wouter";
import { paths } from "../../../../../contract/routes.ts";
import { Button } from "../../../components/ui/button.tsx";
import { useUser } from "../../auth/index.ts";
import { BackLink } from "./back-link.tsx";

export interface NavLink {
  href: string;
  label: string;
}

/**
 * The articles' header (spec §2): Back, the product name, nav links hidden on small screens, and on
 * every screen the site's account action (issue 24, item 6): Sign In, or for a signed-in visitor a
 * link back to their compressor (after hydration, as the public header).
 */
export function ArticlesHeader({ back, links }: { back: string; links: NavLink[] }) {
  const { user } = useUser();
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <div className="flex items-center gap-4">
          <BackLink fallback={back} />
          <Link href={paths.home} className="text-lg font-bold text-brand-700">SqueezeJPEG</Link>
        </div>
        <div className="flex items-center gap-6">
          <nav aria-label="Main" className="hidden items-center gap-6 md:flex">
            {links.map((l) => (
              <Link key={l.href} href={l.href} className="text-sm text-slate-700 hover:text-slate-950">{l.label}</Link>
            ))}
          </nav>
          <Button asChild size="sm">
            {user ? <Link href={paths.home}>Open Compressor</Link> : <Link href={paths.auth}>Sign In</Link>}
          </Button>
        </div>
      </div>
    </header>
  );
}

/** Spec §2: the articles' footer with the 2025 copyright. */
export function ArticlesFooter() {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-3 px-4 py-8 text-sm text-slate-600 md:flex-row">
        <p>© 2025 SqueezeJPEG. All rights reserved.</p>
        <nav aria-label="Footer" className="flex flex-wrap justify-center gap-x-6 gap-y-2">
          <Link href={paths.articles} className="hover:underline">Articles</Link>
          <Link href={paths.about} className="hover:underline">About</Link>
          <Link href={paths.privacy} className="hover:underline">Privacy</Link>
          <Link href={paths.contact} className="hover:underline">Contact</Link>
          <Link href={paths.developers} className="hover:underline">Developers</Link>
        </nav>
      </div>
    </footer>
  );
}
