import { useState } from "react";
import { Link } from "wouter";
import { paths } from "../../../../../contract/routes.ts";
import { Button } from "../../../components/ui/button.tsx";
import { useUser } from "../../auth/index.ts";
import { MenuToggle } from "../../../components/layout/menu-toggle.tsx";

const LINKS = [
  { href: paths.articles, label: "Articles" },
  { href: paths.about, label: "About" },
  { href: paths.contact, label: "Contact" },
];

/**
 * The public pages' sticky header (spec §2 landing): name, links, Sign In, a menu under 768 px.
 * Signed-in visitors get a link to their compressor instead of Sign In (after hydration).
 */
export function PublicHeader() {
  const { user } = useUser();
  const [open, setOpen] = useState(false);
  const action = user
    ? (
      <Button asChild size="sm">
        <Link href={paths.home}>Open Compressor</Link>
      </Button>
    )
    : (
      <Button asChild size="sm">
        <Link href={paths.auth}>Sign In</Link>
      </Button>
    );

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Link href={paths.home} className="text-lg font-bold text-brand-700">SqueezeJPEG</Link>
        <nav aria-label="Main" className="hidden items-center gap-6 md:flex">
          {LINKS.map((l) => (
            <Link key={l.href} href={l.href} className="text-sm text-slate-700 hover:text-slate-950">{l.label}</Link>
          ))}
          {action}
        </nav>
        <MenuToggle open={open} controls="public-mobile-menu" onToggle={() => setOpen(!open)} />
      </div>
      {open && (
        <nav
          id="public-mobile-menu"
          aria-label="Mobile"
          className="flex flex-col gap-1 border-t border-slate-200 bg-white px-4 py-3 md:hidden"
        >
          {LINKS.map((l) => (
            <Link
              key={l.href}
              href={l.href}
              className="rounded px-2 py-2 text-slate-800"
              onClick={() => setOpen(false)}
            >
              {l.label}
            </Link>
          ))}
          <div className="px-2 pt-2">{action}</div>
        </nav>
      )}
    </header>
  );
}
